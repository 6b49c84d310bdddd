import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from "../../../schema/api/api-keys";
import type { Portfolio } from "../../../schema/api/portfolios";
import type { MemberPermission } from "../../../schema/roles";
import { readVersions } from "../../../worker/data/fleet-directory";
import { createDb } from "../../../worker/lib/db";
import { API_KEY_REQUESTS_PER_MINUTE, authenticateApiKey } from "../../../worker/services/api-keys";
import { sitePayload } from "../fleet-helpers";
import {
  addMember,
  auditLog,
  BASE,
  call,
  createOrg,
  DAY_MS,
  entriesFor,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

async function createKey(
  actor: TestUser,
  scope: "read" | "write",
  name = `${scope} key`,
  extra: Omit<CreateApiKeyInput, "name" | "scope"> = {},
) {
  return expectStatus<CreatedApiKey>(
    await call("/api/api-keys", { method: "POST", token: actor.token, body: { name, scope, ...extra } }),
    201,
  );
}

const listKeys = async (actor: TestUser) =>
  expectStatus<ApiKey[]>(await call("/api/api-keys", { token: actor.token }), 200);

const setPermissions = async (owner: TestUser, member: TestUser, permissions: MemberPermission[] | null) =>
  expectStatus(
    await call(`/api/members/${member.id}/permissions`, {
      method: "PUT",
      token: owner.token,
      body: { permissions },
    }),
    200,
  );

const asKey = (key: CreatedApiKey, path: string, init: { method?: string; body?: unknown } = {}) =>
  call(path, { ...init, token: key.key });

const sha256Hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

describe("managing API keys", () => {
  it("answers the key once, lists keys without it and stores only its SHA-256", async () => {
    const owner = await registerOwner();
    const created = await createKey(owner, "read", "Reporting");
    expect(created.key).toMatch(/^sfk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: "Reporting",
      scope: "read",
      permissions: [],
      createdBy: owner.id,
      lastUsedAt: null,
    });
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const listed = await expectStatus<ApiKey[]>(await call("/api/api-keys", { token: owner.token }), 200);
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty("key");
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?")
      .bind(created.id)
      .first<Record<string, unknown>>();
    expect(row?.key_hash).toBe(await sha256Hex(created.key));
    expect(Object.values(row ?? {})).not.toContain(created.key);

    const audit = await auditLog(owner);
    expect(entriesFor(audit, "api_key.create")[0]).toMatchObject({ targetId: created.id, actorId: owner.id });
  });

  it("lets orgOwner and orgEngineer manage keys, not a user", async () => {
    const org = await createOrg();
    await createKey(org.engineer, "write");
    await expectNothingWritten(async () => {
      await expectError(
        await call("/api/api-keys", {
          method: "POST",
          token: org.user.token,
          body: { name: "x", scope: "read" },
        }),
        403,
      );
    });
    await expectError(await call("/api/api-keys", { token: org.user.token }), 403);
  });

  it("refuses a bad scope or name with 400 and writes nothing", async () => {
    const owner = await registerOwner();
    for (const body of [{ name: "x", scope: "admin" }, { name: "  ", scope: "read" }, { scope: "read" }]) {
      await expectNothingWritten(async () => {
        await expectError(await call("/api/api-keys", { method: "POST", token: owner.token, body }), 400);
      });
    }
  });

  it("rejects missing, invalid and expired tokens", async () => {
    const owner = await registerOwner();
    await expectRejectsBadTokens({ method: "GET", path: "/api/api-keys" }, owner);
  });
});

describe("using API keys", () => {
  it("lets a read key read organisation data and refuses its writes", async () => {
    const owner = await registerOwner();
    const key = await createKey(owner, "read");
    await expectStatus(await asKey(key, "/api/sites"), 200);
    await expectStatus(await asKey(key, "/api/alerts/summary"), 200);
    await expectNothingWritten(async () => {
      await expectError(await asKey(key, "/api/portfolios", { method: "POST", body: { name: "Nope" } }), 403);
    });
    const [row] = (
      await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
        .bind(key.id)
        .all<{ last_used_at: number }>()
    ).results;
    expect(row?.last_used_at).toBeGreaterThan(0);
  });

  it("lets a write key change organisation data and audits every such use", async () => {
    const owner = await registerOwner();
    const key = await createKey(owner, "write");
    const portfolio = await expectStatus<Portfolio>(
      await asKey(key, "/api/portfolios", { method: "POST", body: { name: "From the API" } }),
      201,
    );
    expect(
      (await expectStatus<Portfolio[]>(await call("/api/portfolios", { token: owner.token }), 200)).map(
        (p) => p.id,
      ),
    ).toEqual([portfolio.id]);
    const uses = entriesFor(await auditLog(owner), "api_key.write");
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({
      targetId: key.id,
      details: { method: "POST", path: "/api/portfolios", status: 201 },
    });
  });

  it.each(["read", "write"] as const)(
    "never lets a %s key manage members, invites, keys or settings",
    async (scope) => {
      const owner = await registerOwner();
      const key = await createKey(owner, scope);
      const forbidden: { method: string; path: string; body?: unknown }[] = [
        { method: "GET", path: "/api/api-keys" },
        { method: "POST", path: "/api/api-keys", body: { name: "more", scope: "write" } },
        { method: "DELETE", path: `/api/api-keys/${key.id}` },
        { method: "GET", path: "/api/members" },
        { method: "POST", path: "/api/users/invite", body: { email: "x@example.com", role: "orgOwner" } },
        { method: "DELETE", path: `/api/members/${owner.id}` },
        { method: "GET", path: "/api/invites" },
        { method: "PATCH", path: "/api/organization/settings", body: { autoCreateSites: false } },
        { method: "GET", path: "/api/admin/logs" },
        { method: "GET", path: "/api/user/profile" },
        { method: "POST", path: "/api/auth/logout" },
      ];
      await expectNothingWritten(async () => {
        for (const route of forbidden) {
          await expectError(await asKey(key, route.path, route), 403);
        }
      });
    },
  );

  it("answers 401 at once for a revoked key, and a key of another organisation cannot be revoked", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other");
    const key = await createKey(owner, "write");
    await expectError(await call(`/api/api-keys/${key.id}`, { method: "DELETE", token: other.token }), 404);
    await expectStatus(await asKey(key, "/api/sites"), 200);

    const res = await call(`/api/api-keys/${key.id}`, { method: "DELETE", token: owner.token });
    expect(res.status).toBe(204);
    await expectError(await asKey(key, "/api/sites"), 401);
    await expectError(await call(`/api/api-keys/${key.id}`, { method: "DELETE", token: owner.token }), 404);
    expect(await expectStatus<ApiKey[]>(await call("/api/api-keys", { token: owner.token }), 200)).toEqual(
      [],
    );
    expect(entriesFor(await auditLog(owner), "api_key.revoke")[0]).toMatchObject({ targetId: key.id });
  });

  it("keeps each key inside its organisation", async () => {
    const a = await registerOwner("A");
    const b = await registerOwner("B");
    const portfolioA = await expectStatus<Portfolio>(
      await call("/api/portfolios", { method: "POST", token: a.token, body: { name: "A only" } }),
      201,
    );
    const keyB = await createKey(b, "write");
    expect(await expectStatus<Portfolio[]>(await asKey(keyB, "/api/portfolios"), 200)).toEqual([]);
    await expectError(await asKey(keyB, `/api/portfolios/${portfolioA.id}`, { method: "DELETE" }), 404);
    expect(
      (await expectStatus<Portfolio[]>(await call("/api/portfolios", { token: a.token }), 200)).map(
        (p) => p.id,
      ),
    ).toEqual([portfolioA.id]);
    expect(await expectStatus<ApiKey[]>(await call("/api/api-keys", { token: a.token }), 200)).toEqual([]);
  });

  it("limits each key's requests per minute with 429 and Retry-After, other keys unaffected", async () => {
    const owner = await registerOwner();
    const busy = await createKey(owner, "read", "busy");
    const quiet = await createKey(owner, "read", "quiet");
    // The window is a calendar minute: start right after a boundary so all requests share one.
    const msIntoMinute = Date.now() % 60_000;
    if (msIntoMinute > 40_000)
      await new Promise((resolve) => setTimeout(resolve, 60_000 - msIntoMinute + 50));
    for (let sent = 0; sent < API_KEY_REQUESTS_PER_MINUTE; sent += 20) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(20, API_KEY_REQUESTS_PER_MINUTE - sent) }, () =>
          asKey(busy, "/api/alerts/summary"),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    }
    const refused = await asKey(busy, "/api/alerts/summary");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectError(refused, 429);
    await expectStatus(await asKey(quiet, "/api/alerts/summary"), 200);
  }, 60_000);
});

/** Through the API a key's use of each write area: a portfolio, a site, a provider connection. */
async function writeAreasOf(
  key: CreatedApiKey,
): Promise<Record<"portfolios" | "sites" | "credentials", number>> {
  const portfolio = await asKey(key, "/api/portfolios", {
    method: "POST",
    body: { name: `P ${crypto.randomUUID()}` },
  });
  const site = await asKey(key, "/api/sites", { method: "POST", body: sitePayload() });
  // No connection exists: 404 for a caller allowed to delete one, 403 for one who is not.
  const credentials = await asKey(key, "/api/credentials/solis", { method: "DELETE" });
  await Promise.all([portfolio.text(), site.text(), credentials.text()]);
  return { portfolios: portfolio.status, sites: site.status, credentials: credentials.status };
}

describe("a key never does more than its creator", () => {
  it("gives a narrowed engineer's write key only the areas they hold", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer", { permissions: ["sites"] });
    const key = await createKey(engineer, "write");
    expect(key.permissions).toEqual(["sites"]);
    expect(await writeAreasOf(key)).toEqual({ portfolios: 403, sites: 201, credentials: 403 });
  });

  it("answers 403 api_key_permissions for a key granting an area its creator does not hold, writing nothing", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer", { permissions: ["sites", "users"] });
    await expectNothingWritten(async () => {
      const refused = await expectError(
        await call("/api/api-keys", {
          method: "POST",
          token: engineer.token,
          body: { name: "wider", scope: "write", permissions: ["sites", "credentials"] },
        }),
        403,
        /credentials/,
      );
      expect(refused).toMatchObject({ code: "forbidden", details: { reason: "api_key_permissions" } });
    });
    // One holding no key area at all gets no write key.
    const auditor = await addMember(owner, "orgEngineer", { permissions: ["audit"] });
    const none = await expectError(
      await call("/api/api-keys", {
        method: "POST",
        token: auditor.token,
        body: { name: "w", scope: "write" },
      }),
      403,
    );
    expect(none.details).toEqual({ reason: "api_key_permissions" });
    // The areas it holds are granted as asked, in a fixed order.
    const granted = await createKey(engineer, "write", "sites only", { permissions: ["sites", "sites"] });
    expect(granted.permissions).toEqual(["sites"]);
    const full = await createKey(owner, "write", "everything", {
      permissions: ["portfolios", "credentials"],
    });
    expect(full.permissions).toEqual(["credentials", "portfolios"]);
    expect(await writeAreasOf(full)).toEqual({ portfolios: 201, sites: 403, credentials: 404 });
  });

  it("follows its creator's permissions as they are now, whatever the key was granted", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const key = await createKey(engineer, "write");
    // Narrowed behind the API's back (as a key made before keys had areas would be): the key follows.
    await env.DB.prepare("UPDATE users SET permissions = ? WHERE id = ?")
      .bind(JSON.stringify(["portfolios"]), engineer.id)
      .run();
    await env.DB.prepare("UPDATE api_keys SET permissions = NULL WHERE id = ?").bind(key.id).run();
    expect(await writeAreasOf(key)).toEqual({ portfolios: 201, sites: 403, credentials: 403 }); // Demoted behind the API's back, the creator holds no keys: the key answers 401.
    await env.DB.prepare("UPDATE users SET role = 'user' WHERE id = ?").bind(engineer.id).run();
    await expectError(await asKey(key, "/api/sites"), 401);
  });

  it("lets an engineer without the keys area see and revoke only their own keys; the area or an owner reaches every key", async () => {
    const owner = await registerOwner();
    const ownersKey = await createKey(owner, "write", "owner's");
    const narrowed = await addMember(owner, "orgEngineer", { permissions: ["sites"] });
    const narrowedKey = await createKey(narrowed, "read", "narrowed's");
    expect((await listKeys(narrowed)).map((k) => k.id)).toEqual([narrowedKey.id]);

    const refused = await expectError(
      await call(`/api/api-keys/${ownersKey.id}`, { method: "DELETE", token: narrowed.token }),
      403,
    );
    expect(refused.details).toEqual({ reason: "revoke_api_key" });
    await expectStatus(await asKey(ownersKey, "/api/sites"), 200);

    const keyManager = await addMember(owner, "orgEngineer", { permissions: ["sites", "apiKeys"] });
    expect((await listKeys(keyManager)).map((k) => k.id).sort()).toEqual(
      [ownersKey.id, narrowedKey.id].sort(),
    );
    expect(
      (await call(`/api/api-keys/${ownersKey.id}`, { method: "DELETE", token: keyManager.token })).status,
    ).toBe(204);
    await expectError(await asKey(ownersKey, "/api/sites"), 401);
    expect(
      (await call(`/api/api-keys/${narrowedKey.id}`, { method: "DELETE", token: narrowed.token })).status,
    ).toBe(204);
    expect(await listKeys(owner)).toEqual([]);
  });
});

describe("a key ends with its creator's standing", () => {
  it("is revoked when its creator is removed from the organisation", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const write = await createKey(engineer, "write");
    const read = await createKey(engineer, "read");
    const ownersKey = await createKey(owner, "read");
    await expectStatus(await asKey(write, "/api/sites"), 200);

    await expectStatus(
      await call(`/api/members/${engineer.id}`, { method: "DELETE", token: owner.token }),
      200,
    );
    await expectError(await asKey(write, "/api/sites"), 401);
    await expectError(await asKey(read, "/api/sites"), 401);
    await expectStatus(await asKey(ownersKey, "/api/sites"), 200);
    expect((await listKeys(owner)).map((k) => k.id)).toEqual([ownersKey.id]);
    const revoked = entriesFor(await auditLog(owner), "api_key.revoke");
    expect(revoked.map((e) => e.targetId).sort()).toEqual([write.id, read.id].sort());
    expect(revoked[0]?.details).toMatchObject({ because: "member.remove" });
  });

  it("is revoked when its creator is demoted to a role without keys", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const key = await createKey(engineer, "read");
    await expectStatus(
      await call(`/api/users/${engineer.id}/role`, {
        method: "PATCH",
        token: owner.token,
        body: { role: "user" },
      }),
      200,
    );
    await expectError(await asKey(key, "/api/sites"), 401);
    expect(await listKeys(owner)).toEqual([]);
    expect(entriesFor(await auditLog(owner), "api_key.revoke")[0]).toMatchObject({
      targetId: key.id,
      details: { because: "member.role_change" },
    });
  });

  it("is revoked when it grants an area its creator's narrowed permissions no longer hold; keys within them stay", async () => {
    const owner = await registerOwner();
    const engineer = await addMember(owner, "orgEngineer");
    const everything = await createKey(engineer, "write", "everything");
    const sitesOnly = await createKey(engineer, "write", "sites", { permissions: ["sites"] });
    const read = await createKey(engineer, "read", "read");

    await setPermissions(owner, engineer, ["sites", "users"]);
    await expectError(await asKey(everything, "/api/sites"), 401);
    await expectStatus(await asKey(sitesOnly, "/api/sites"), 200);
    await expectStatus(await asKey(read, "/api/sites"), 200);
    expect((await listKeys(owner)).map((k) => k.id).sort()).toEqual([sitesOnly.id, read.id].sort());
    expect(entriesFor(await auditLog(owner), "api_key.revoke").map((e) => e.targetId)).toEqual([
      everything.id,
    ]);
  });

  it("expires a year after creation unless its creator chooses up to two years, and answers 401 once expired", async () => {
    const owner = await registerOwner();
    const before = Date.now();
    const standard = await createKey(owner, "read", "standard");
    const month = await createKey(owner, "read", "month", { expiresInDays: 30 });
    const longest = await createKey(owner, "read", "longest", { expiresInDays: 730 });
    const after = Date.now();
    const expiresIn = (key: ApiKey) => Date.parse(key.expiresAt);
    expect(expiresIn(standard)).toBeGreaterThanOrEqual(before + 365 * DAY_MS);
    expect(expiresIn(standard)).toBeLessThanOrEqual(after + 365 * DAY_MS);
    expect(expiresIn(month)).toBeLessThanOrEqual(after + 30 * DAY_MS);
    expect(expiresIn(longest)).toBeGreaterThanOrEqual(before + 730 * DAY_MS);
    const listed = await listKeys(owner);
    expect(listed.find((k) => k.id === month.id)?.expiresAt).toBe(month.expiresAt);

    for (const expiresInDays of [731, 0, 1.5]) {
      await expectNothingWritten(async () => {
        await expectError(
          await call("/api/api-keys", {
            method: "POST",
            token: owner.token,
            body: { name: "too long", scope: "read", expiresInDays },
          }),
          400,
        );
      });
    }

    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, month.id)
      .run();
    await expectError(await asKey(month, "/api/sites"), 401);
    await expectStatus(await asKey(standard, "/api/sites"), 200);
    // Keys made before keys expired end a year after they were made.
    await env.DB.prepare("UPDATE api_keys SET expires_at = NULL, created_at = ? WHERE id = ?")
      .bind(Date.now() - 366 * DAY_MS, standard.id)
      .run();
    await expectError(await asKey(standard, "/api/sites"), 401);
  });
});

describe("a key's authentication", () => {
  it("reads D1's counters for the key's organisation with the key, for the fleet store to check its read models against", async () => {
    const owner = await registerOwner();
    const key = await createKey(owner, "read");
    await call("/api/sites", { method: "POST", token: owner.token, body: sitePayload() });
    const ctx = { db: createDb(env.DB), env, now: Date.now(), ip: null, origin: BASE };
    const authenticated = await authenticateApiKey(ctx, key.key);
    expect(authenticated?.caller.orgId).toBe(owner.orgId);
    const counters = await readVersions(ctx.db, owner.orgId);
    expect(counters.org).toBeGreaterThan(0);
    expect(authenticated?.orgVersions).toEqual(counters);
  });
});
