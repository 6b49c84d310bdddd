import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuthResponse } from "../../../schema/api/auth";
import { app } from "../../../worker/app";
import { responseOf } from "../../../worker/lib/responds";
import { signUnsubscribeToken } from "../../../worker/lib/unsubscribe-token";
import { meteronlineImport, sitePayload } from "../fleet-helpers";
import {
  addMember,
  call,
  createInvite,
  createRemovedUser,
  createSuperAdmin,
  expectNoInternals,
  markEmailVerified,
  PASSWORD,
  type TestUser,
  uniqueEmail,
} from "../helpers";
import { accountMailTo, linkIn, mailArriving } from "../mail-helpers";

/**
 * Every route the app serves under /api, called through HTTP with a real organisation: each JSON
 * answer must parse with the zod schema the route declares with `responds()` (the schema the
 * OpenAPI document publishes) and carry no field the schema leaves out. A route added without a
 * call here, or without a declared answer, fails the last two tests by name.
 */

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** "METHOD /api/path" with Hono's `:param` placeholders, as `app.routes` names a route. */
type Route = `${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /api/${string}`;

/** Routes whose success answer is not a JSON body: what is checked of them instead. */
const NOT_JSON: Partial<Record<Route, "no body" | "html" | "document">> = {
  "DELETE /api/api-keys/:id": "no body",
  "GET /api/unsubscribe": "html",
  "POST /api/unsubscribe": "html",
  "GET /api/docs": "html",
  // The document is checked against the OpenAPI 3.1 schema in tests/e2e/openapi.e2e.ts.
  "GET /api/openapi.json": "document",
};

const servedRoutes = (): Route[] => [
  ...new Set(
    app.routes
      .filter((r) => METHODS.has(r.method) && r.path.startsWith("/api/"))
      .map((r) => `${r.method} ${r.path}` as Route),
  ),
];

/** The success answer a route declares (`responds()` sits among its handlers). */
const declaredAnswer = (route: Route) => {
  const [method, path] = route.split(" ");
  return app.routes
    .filter((r) => r.method === method && r.path === path)
    .map((r) => responseOf(r.handler))
    .find((response) => response !== undefined);
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Where `sent` holds a field that parsing with the schema dropped (`$.items[].extra`). */
function undeclaredFields(sent: unknown, kept: unknown, at = "$"): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) {
    return sent.flatMap((item, index) => undeclaredFields(item, kept[index], `${at}[]`));
  }
  if (isRecord(sent) && isRecord(kept)) {
    return Object.entries(sent).flatMap(([key, value]) =>
      key in kept ? undeclaredFields(value, kept[key], `${at}.${key}`) : [`${at}.${key}`],
    );
  }
  return [];
}

const exercised = new Set<Route>();

interface Exchange {
  token?: string;
  body?: unknown;
  /** The URL when the route's path has parameters or the call a query. */
  url?: string;
  /** The status expected when it is not the declared one (a second success status). */
  status?: number;
  headers?: Record<string, string>;
  rawBody?: BodyInit;
}

/** `/api/sites/:id/systems/:systemId` as a pattern the called URL must match. */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/:\w+/g, "[^/]+").replace(/[.]/g, "\\.")}(\\?.*)?$`);

/**
 * Calls a route and checks its answer: the declared status (or the one given), JSON, parsing with
 * the declared schema, and no field the schema does not name. Answers the parsed body.
 */
async function exchange<T = unknown>(route: Route, init: Exchange = {}): Promise<T> {
  const [method = "", path = ""] = route.split(" ");
  const url = init.url ?? path;
  expect(url, `${route} called at ${url}`).toMatch(pathPattern(path));
  const res = await call(url, {
    method,
    token: init.token,
    body: init.body,
    rawBody: init.rawBody,
    headers: init.headers,
  });
  const text = await res.text();
  expectNoInternals(text);
  exercised.add(route);
  const kind = NOT_JSON[route];
  if (kind) {
    expect(res.status, `${route}: ${res.status} ${text}`).toBe(
      init.status ?? (kind === "no body" ? 204 : 200),
    );
    if (kind === "no body") expect(text, route).toBe("");
    if (kind === "html") expect(res.headers.get("Content-Type"), route).toMatch(/^text\/html/);
    if (kind === "document") expect(res.headers.get("Content-Type"), route).toMatch(/^application\/json/);
    return (kind === "document" ? JSON.parse(text) : text) as T;
  }
  const declared = declaredAnswer(route);
  if (!declared) throw new Error(`${route} declares no answer: add responds(name, schema) to the route`);
  expect(res.status, `${route}: ${res.status} ${text}`).toBe(init.status ?? declared.status);
  expect(res.headers.get("Content-Type"), route).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(text);
  const parsed = declared.schema.safeParse(body);
  expect(
    parsed.error?.issues.map((issue) => `${issue.path.join(".") || "$"}: ${issue.message}`) ?? [],
    `${route} answered what ${declared.name} does not describe`,
  ).toEqual([]);
  expect(
    [...new Set(undeclaredFields(body, parsed.data))],
    `${route} answered fields ${declared.name} does not name`,
  ).toEqual([]);
  return body as T;
}

const insertAlert = async (orgId: string, systemId: string) => {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO alerts (id, org_id, system_id, title, message, severity, created_at, resolved, rule, lost_energy_wh)
     VALUES (?, ?, ?, 'No production', 'Plant at 0 W', 'critical', ?, 0, 'no_production', 1200)`,
  )
    .bind(id, orgId, systemId, Date.now() - 60_000)
    .run();
  return id;
};

const insertNotification = async (user: TestUser, alertId: string) => {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO notifications (id, org_id, user_id, kind, alert_id, title, severity, created_at, read_at)
     VALUES (?, ?, ?, 'alert_opened', ?, 'No production', 'critical', ?, NULL)`,
  )
    .bind(id, user.orgId, user.id, alertId, Date.now())
    .run();
  return id;
};

/** The address's verification mail, once it has arrived. */
async function verificationMailTo(email: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const [mail] = (await accountMailTo(email)).filter((m) => m.text.includes("/verify-email?token="));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Ids {
  id: string;
}

let owner: TestUser;
let engineer: TestUser;
let systemIds: string[] = [];

beforeAll(async () => {
  const email = uniqueEmail("schema-owner");
  const registered = await exchange<AuthResponse>("POST /api/auth/register", {
    body: { email, password: PASSWORD, fullName: "Olivia Owner", companyName: "Schema Solar" },
  });
  await markEmailVerified(registered.user.id);
  owner = {
    id: registered.user.id,
    email,
    token: registered.token,
    orgId: registered.user.companyId ?? "",
    role: "orgOwner",
  };
  engineer = await addMember(owner, "orgEngineer");
  await exchange("PATCH /api/organization/settings", {
    token: owner.token,
    body: { autoCreateSites: false },
  });
});

describe("every answer matches its declared schema", () => {
  it("accounts: health, sign-in, sessions, passwords, verification, profile and preferences", async () => {
    await exchange("GET /api/health");
    const signedIn = await exchange<AuthResponse>("POST /api/auth/login", {
      body: { email: owner.email, password: PASSWORD },
    });
    const sessions = await exchange<unknown[]>("GET /api/auth/sessions", { token: owner.token });
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    await exchange("DELETE /api/auth/sessions", { token: owner.token });
    expect((await call("/api/user/profile", { token: signedIn.token })).status).toBe(401);

    await exchange("POST /api/auth/verify-email/resend", { token: owner.token });
    const unverified = await exchange<AuthResponse>("POST /api/auth/register", {
      body: { email: uniqueEmail("unverified"), password: PASSWORD, fullName: "U", companyName: "U Solar" },
    });
    const verification = await verificationMailTo(unverified.user.email);
    await exchange("POST /api/auth/verify-email", {
      body: { token: linkIn(verification, "/verify-email").searchParams.get("token") },
    });

    const forgetful = await addMember(owner, "user", { prefix: "forgetful" });
    await exchange("POST /api/auth/password-reset", { body: { email: forgetful.email } });
    const [resetMail] = await mailArriving(forgetful.email);
    if (!resetMail) throw new Error("no reset mail");
    await exchange("POST /api/auth/password-reset/confirm", {
      body: {
        token: linkIn(resetMail, "/reset-password").searchParams.get("token"),
        password: "a brand new passphrase",
      },
    });
    const changing = await addMember(owner, "user", { prefix: "changing" });
    await exchange("POST /api/auth/password", {
      token: changing.token,
      body: { currentPassword: PASSWORD, newPassword: "another new passphrase" },
    });

    const founder = await createRemovedUser();
    await exchange("POST /api/auth/signup", { token: founder.token, body: { companyName: "Founded Solar" } });
    const joiner = await createRemovedUser();
    const invite = await createInvite(owner, "user", { email: joiner.email });
    await exchange("POST /api/auth/accept-invite", {
      token: joiner.token,
      body: { inviteToken: invite.token },
    });

    await exchange("GET /api/user/profile", { token: owner.token });
    await exchange("GET /api/user/preferences", { token: owner.token });
    await exchange("PATCH /api/user/preferences", { token: owner.token, body: { weeklyDigest: false } });
    await exchange("GET /api/timezones", { token: owner.token });

    const leaving = await exchange<AuthResponse>("POST /api/auth/login", {
      body: { email: owner.email, password: PASSWORD },
    });
    await exchange("POST /api/auth/logout", { token: leaving.token });
  });

  it("members, invites, API keys and the audit log", async () => {
    await exchange("GET /api/users", { token: owner.token });
    await exchange("GET /api/members", { token: owner.token });
    await exchange("POST /api/users/invite", {
      token: owner.token,
      body: { email: uniqueEmail("invited"), role: "user" },
    });
    const created = await exchange<{ invite: Ids }>("POST /api/members/invite", {
      token: owner.token,
      body: { email: uniqueEmail("invited"), role: "orgEngineer", permissions: ["sites"] },
    });
    const invites = await exchange<unknown[]>("GET /api/invites", { token: owner.token });
    expect(invites.length).toBeGreaterThanOrEqual(2);
    await exchange("DELETE /api/invites/:id", {
      token: owner.token,
      url: `/api/invites/${created.invite.id}`,
    });

    const promoted = await addMember(owner, "user", { prefix: "promoted" });
    await exchange("PATCH /api/users/:id/role", {
      token: owner.token,
      url: `/api/users/${promoted.id}/role`,
      body: { role: "orgEngineer" },
    });
    await exchange("PUT /api/members/:id/permissions", {
      token: owner.token,
      url: `/api/members/${promoted.id}/permissions`,
      body: { permissions: ["sites"] },
    });
    await exchange("DELETE /api/members/:id", { token: owner.token, url: `/api/members/${promoted.id}` });
    const removed = await addMember(owner, "user", { prefix: "removed" });
    await exchange("DELETE /api/users/:id", { token: owner.token, url: `/api/users/${removed.id}` });

    await exchange("GET /api/organization/settings", { token: owner.token });
    const key = await exchange<Ids>("POST /api/api-keys", {
      token: owner.token,
      body: { name: "schema check", scope: "read" },
    });
    await exchange("GET /api/api-keys", { token: owner.token });
    await exchange("DELETE /api/api-keys/:id", { token: owner.token, url: `/api/api-keys/${key.id}` });
    await exchange("GET /api/admin/logs", { token: owner.token });
    await exchange("GET /api/admin/fleet-stores", { token: (await createSuperAdmin()).token });
  });

  it("providers, connections, sync runs and imports", async () => {
    await exchange("GET /api/providers", { token: owner.token });
    await exchange("GET /api/providers/:provider/schema", {
      token: owner.token,
      url: "/api/providers/solis/schema",
    });
    const { sandboxAccounts } = await import("../../../sandbox/accounts");
    const credentials = {
      keyId: sandboxAccounts.solis[0].keyId,
      keySecret: sandboxAccounts.solis[0].keySecret,
    };
    await exchange("POST /api/credentials/:provider/test", {
      token: owner.token,
      url: "/api/credentials/solis/test",
      body: { credentials },
    });
    await exchange("POST /api/credentials", { token: owner.token, body: { provider: "solis", credentials } });
    await exchange("GET /api/credentials", { token: owner.token });
    await exchange("POST /api/providers/:provider/sync", {
      token: owner.token,
      url: "/api/providers/solis/sync",
    });
    const [run] = await exchange<Ids[]>("GET /api/providers/:provider/runs", {
      token: owner.token,
      url: "/api/providers/solis/runs",
    });
    await exchange("GET /api/sync-runs/:id", { token: owner.token, url: `/api/sync-runs/${run?.id}` });
    await exchange("POST /api/providers/meteronline/import", {
      token: owner.token,
      body: meteronlineImport(["01-06-2026 12:00;MO-1;Meter Roof;3,5;12,25"]),
    });
    const available = await exchange<(Ids & { provider: string })[]>("GET /api/available-systems", {
      token: owner.token,
    });
    systemIds = available.filter((system) => system.provider === "solis").map((system) => system.id);
    expect(systemIds.length).toBeGreaterThanOrEqual(3);
  });

  it("sites, their systems and weather, and portfolios", async () => {
    const [first = "", second = "", third = ""] = systemIds;
    const site = await exchange<Ids>("POST /api/sites", { token: owner.token, body: sitePayload() });
    const systemsOf = `/api/sites/${site.id}/systems`;
    for (const systemId of [first, second]) {
      await exchange("POST /api/sites/:id/systems", {
        token: owner.token,
        url: systemsOf,
        body: { systemId },
      });
    }
    // Attached already: 200 with the same shape.
    await exchange("POST /api/sites/:id/systems", {
      token: owner.token,
      url: systemsOf,
      body: { systemId: first },
      status: 200,
    });
    await exchange("DELETE /api/sites/:id/systems/:systemId", {
      token: owner.token,
      url: `${systemsOf}/${second}`,
    });
    await exchange("POST /api/sites/:id/systems", {
      token: owner.token,
      url: systemsOf,
      body: { systemId: second },
    });
    const split = await exchange<{ sites: Ids[] }>("POST /api/sites/:id/split", {
      token: owner.token,
      url: `/api/sites/${site.id}/split`,
      body: { systemIds: [second] },
    });
    await exchange("POST /api/sites/:id/merge", {
      token: owner.token,
      url: `/api/sites/${site.id}/merge`,
      body: { siteIds: split.sites.map((s) => s.id) },
    });
    const plantSites = await exchange<{ sites: Ids[] }>("POST /api/sites/from-systems", {
      token: owner.token,
      body: { systemIds: [third] },
    });
    await exchange("GET /api/sites", { token: owner.token });
    await exchange("GET /api/sites/enhanced", { token: owner.token });
    await exchange("GET /api/sites/:id", { token: owner.token, url: `/api/sites/${site.id}` });
    await exchange("PATCH /api/sites/:id", {
      token: owner.token,
      url: `/api/sites/${site.id}`,
      body: { name: "Renamed Rooftop" },
    });
    await exchange("GET /api/sites/:id/weather-history", {
      token: owner.token,
      url: `/api/sites/${site.id}/weather-history?date=2026-01-15`,
    });
    await exchange("PATCH /api/systems/:id", {
      token: owner.token,
      url: `/api/systems/${first}`,
      body: { tiltDeg: 30, azimuthDeg: 180 },
    });
    await exchange("GET /api/sites/counts", { token: owner.token });
    await exchange("GET /api/sites/groups", { token: owner.token, url: "/api/sites/groups?by=country" });
    await exchange("GET /api/sites/map", { token: owner.token });
    const tariff = { currency: "EUR", pricePerKwh: 0.25 };
    await exchange("PUT /api/organization/tariff", { token: owner.token, body: tariff });
    await exchange("GET /api/organization/tariffs", { token: owner.token });
    await exchange("PUT /api/sites/:id/tariff", {
      token: owner.token,
      url: `/api/sites/${site.id}/tariff`,
      body: { ...tariff, pricePerKwh: 0.3, validFrom: "2026-01-01" },
    });
    await exchange("GET /api/sites/:id/tariffs", {
      token: owner.token,
      url: `/api/sites/${site.id}/tariffs`,
    });
    await exchange("DELETE /api/sites/:id/tariff", {
      token: owner.token,
      url: `/api/sites/${site.id}/tariff`,
    });
    await exchange("GET /api/systems/:id/weather-history", {
      token: owner.token,
      url: `/api/systems/${first}/weather-history?date=2026-01-15`,
    });

    const portfolio = await exchange<Ids>("POST /api/portfolios", {
      token: owner.token,
      body: { name: "Schema Portfolio", description: "Checked" },
    });
    const portfolioUrl = `/api/portfolios/${portfolio.id}`;
    await exchange("PATCH /api/portfolios/:id", {
      token: owner.token,
      url: portfolioUrl,
      body: { name: "Schema Portfolio 2" },
    });
    await exchange("POST /api/portfolios/:id/sites", {
      token: owner.token,
      url: `${portfolioUrl}/sites`,
      body: { siteIds: [site.id, ...plantSites.sites.map((s) => s.id)] },
    });
    await exchange("GET /api/portfolios", { token: owner.token });
    await exchange("GET /api/portfolios/:id/sites", { token: owner.token, url: `${portfolioUrl}/sites` });
    await exchange("DELETE /api/portfolios/:id/sites/:siteId", {
      token: owner.token,
      url: `${portfolioUrl}/sites/${site.id}`,
    });
    await exchange("DELETE /api/portfolios/:id", { token: owner.token, url: portfolioUrl });
    await exchange("DELETE /api/sites/:id", {
      token: owner.token,
      url: `/api/sites/${plantSites.sites[0]?.id}`,
    });

    await exchange("POST /api/geocode", {
      token: owner.token,
      body: { address: "Keizersgracht 123, Amsterdam" },
    });
    await exchange("GET /api/geocode", {
      token: owner.token,
      url: `/api/geocode?address=${encodeURIComponent("Amsterdam")}`,
    });
    await exchange("POST /api/solar/estimate-yield", {
      token: owner.token,
      body: { latitude: 52.37, longitude: 4.89, capacity: 10 },
    });
    await exchange("GET /api/weather/current", {
      token: owner.token,
      url: "/api/weather/current?lat=52.3676&lng=4.9041",
    });
  });

  it("alerts, alert rules and notifications", async () => {
    const alertId = await insertAlert(owner.orgId, systemIds[0] ?? "");
    await insertNotification(owner, alertId);
    await exchange("GET /api/alerts", { token: owner.token });
    await exchange("GET /api/alerts/summary", { token: owner.token });
    const alertUrl = `/api/alerts/${alertId}`;
    await exchange("POST /api/alerts/:id/acknowledge", {
      token: owner.token,
      url: `${alertUrl}/acknowledge`,
      body: { note: "Looking" },
    });
    await exchange("POST /api/alerts/:id/assign", {
      token: owner.token,
      url: `${alertUrl}/assign`,
      body: { userId: engineer.id },
    });
    await exchange("POST /api/alerts/:id/resolve", {
      token: owner.token,
      url: `${alertUrl}/resolve`,
      body: {},
    });
    await exchange("POST /api/alerts/:id/reopen", {
      token: owner.token,
      url: `${alertUrl}/reopen`,
      body: {},
    });
    await exchange("PATCH /api/alerts/:id", { token: owner.token, url: alertUrl, body: { resolved: true } });
    await exchange("GET /api/alert-rules", { token: owner.token });
    await exchange("PATCH /api/alert-rules", {
      token: owner.token,
      body: { rules: [{ rule: "underperformance", thresholdPct: 70 }] },
    });
    await exchange("GET /api/notifications", { token: owner.token });
    await exchange("POST /api/notifications/read", { token: owner.token, body: {} });
  });

  it("the dashboard, analytics and reports", async () => {
    await exchange("GET /api/dashboard/metrics", { token: owner.token });
    await exchange("GET /api/dashboard/summary", { token: owner.token });
    await exchange("GET /api/dashboard/systems", {
      token: owner.token,
      url: "/api/dashboard/systems?page=1&pageSize=2",
    });
    await exchange("GET /api/dashboard/series", { token: owner.token });
    await exchange("GET /api/debug/dashboard-test", { token: owner.token });
    await exchange("GET /api/analytics", { token: owner.token });
    await exchange("GET /api/analytics", {
      token: owner.token,
      url: `/api/analytics?system=${systemIds[0]}&range=7d`,
    });
    await exchange("GET /api/reports/monthly-energy", {
      token: owner.token,
      url: "/api/reports/monthly-energy?month=2026-01",
    });
    await exchange("GET /api/losses", {
      token: owner.token,
      url: "/api/losses?from=2026-01-01&to=2026-01-31",
    });
    await exchange("GET /api/losses", {
      token: owner.token,
      url: `/api/losses?systemId=${systemIds[0]}&from=2026-01-01&to=2026-01-07`,
    });
    await exchange("GET /api/losses/ranking", { token: owner.token, url: "/api/losses/ranking?days=30" });
  });

  it("the answers that are not JSON: the docs, a revoked connection's delete, unsubscribing", async () => {
    await exchange("GET /api/openapi.json");
    await exchange("GET /api/docs");
    const token = await signUnsubscribeToken(
      { userId: owner.id, topic: "weeklyDigest" },
      env.JWT_SECRET,
      Date.now(),
    );
    await exchange("GET /api/unsubscribe", { url: `/api/unsubscribe?token=${encodeURIComponent(token)}` });
    await exchange("POST /api/unsubscribe", {
      rawBody: new URLSearchParams({ token }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    await exchange("DELETE /api/credentials/:provider", {
      token: owner.token,
      url: "/api/credentials/solis",
    });
  });
});

describe("coverage", () => {
  it("declares the answer of every route that answers JSON", () => {
    const undeclared = servedRoutes().filter((route) => !NOT_JSON[route] && !declaredAnswer(route));
    expect(undeclared, "routes without responds(name, schema)").toEqual([]);
    const stale = Object.keys(NOT_JSON).filter((route) => !servedRoutes().includes(route as Route));
    expect(stale, "NOT_JSON names routes the app does not serve").toEqual([]);
  });

  it("called every route the app serves under /api", () => {
    const missed = servedRoutes().filter((route) => !exercised.has(route));
    expect(missed, "routes this file never called: add a call above").toEqual([]);
  });
});
