import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../../worker/index";
import {
  BASE,
  call,
  createOrg,
  createRemovedUser,
  expectError,
  expectStatus,
  PASSWORD,
  type TestOrg,
  type TestUser,
  tableCounts,
  uniqueEmail,
} from "../helpers";

let org: TestOrg;
let removed: TestUser;

beforeAll(async () => {
  org = await createOrg("Input Co");
  removed = await createRemovedUser();
});

interface BodyRoute {
  method: string;
  path: () => string;
  token: () => string | null;
  /** A body the route accepts, so each failure below is caused by the one defect added to it. */
  valid: () => Record<string, unknown>;
  /** The same body with one field of the wrong type. */
  wrongType: () => Record<string, unknown>;
}

const BODY_ROUTES: Record<string, BodyRoute> = {
  "POST /api/auth/register": {
    method: "POST",
    path: () => "/api/auth/register",
    token: () => null,
    valid: () => ({
      email: uniqueEmail("bad"),
      password: PASSWORD,
      fullName: "Bad Input",
      companyName: "Bad Co",
    }),
    wrongType: () => ({ email: 42, password: PASSWORD, fullName: "Bad Input", companyName: "Bad Co" }),
  },
  "POST /api/auth/login": {
    method: "POST",
    path: () => "/api/auth/login",
    token: () => null,
    valid: () => ({ email: org.owner.email, password: PASSWORD }),
    wrongType: () => ({ email: org.owner.email, password: 12345678 }),
  },
  "POST /api/auth/signup": {
    method: "POST",
    path: () => "/api/auth/signup",
    token: () => removed.token,
    valid: () => ({ companyName: "Fresh Start" }),
    wrongType: () => ({ companyName: 5 }),
  },
  "POST /api/auth/accept-invite": {
    method: "POST",
    path: () => "/api/auth/accept-invite",
    token: () => removed.token,
    valid: () => ({ inviteToken: "some-token" }),
    wrongType: () => ({ inviteToken: true }),
  },
  "POST /api/users/invite": {
    method: "POST",
    path: () => "/api/users/invite",
    token: () => org.owner.token,
    valid: () => ({ email: uniqueEmail("bad"), role: "user" }),
    wrongType: () => ({ email: uniqueEmail("bad"), role: 1 }),
  },
  "POST /api/members/invite": {
    method: "POST",
    path: () => "/api/members/invite",
    token: () => org.owner.token,
    valid: () => ({ email: uniqueEmail("bad"), role: "orgEngineer", permissions: ["users"] }),
    wrongType: () => ({ email: uniqueEmail("bad"), role: "orgEngineer", permissions: "users" }),
  },
  "PATCH /api/users/{id}/role": {
    method: "PATCH",
    path: () => `/api/users/${org.user.id}/role`,
    token: () => org.owner.token,
    valid: () => ({ role: "orgEngineer" }),
    wrongType: () => ({ role: ["orgEngineer"] }),
  },
  "PUT /api/members/{id}/permissions": {
    method: "PUT",
    path: () => `/api/members/${org.engineer.id}/permissions`,
    token: () => org.owner.token,
    valid: () => ({ permissions: ["sites"] }),
    wrongType: () => ({ permissions: { sites: true } }),
  },
  "PATCH /api/user/preferences": {
    method: "PATCH",
    path: () => "/api/user/preferences",
    token: () => org.user.token,
    valid: () => ({ weeklyDigest: false }),
    wrongType: () => ({ weeklyDigest: "no" }),
  },
};

const ROUTE_NAMES = Object.keys(BODY_ROUTES);
const routeOf = (name: string): BodyRoute => {
  const route = BODY_ROUTES[name];
  if (!route) throw new Error(`no route ${name}`);
  return route;
};

const send = (
  route: BodyRoute,
  init: { body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> },
) => call(route.path(), { method: route.method, token: route.token(), ...init });

/** Sends a request that must fail with `status` and leave every table as it was. */
async function expectRefused(request: Promise<Response>, status: number) {
  const before = await tableCounts();
  const body = await expectError(await request, status);
  expect(await tableCounts()).toEqual(before);
  return body;
}

describe.each(ROUTE_NAMES)("%s", (name) => {
  const route = routeOf(name);

  it("answers 400 with zod's issue for an unknown field", async () => {
    const body = await expectRefused(send(route, { body: { ...route.valid(), isAdmin: true } }), 400);
    expect(body.error).toBe("Invalid input");
    expect(body.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "unrecognized_keys", message: expect.stringContaining("isAdmin") }),
      ]),
    );
  });

  it("answers 400 with zod's issues for a field of the wrong type", async () => {
    const body = await expectRefused(send(route, { body: route.wrongType() }), 400);
    expect(body.error).toBe("Invalid input");
    expect(body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.any(Array) })]),
    );
  });

  it("answers 400 for malformed JSON", async () => {
    const text = JSON.stringify(route.valid()).slice(0, -1);
    await expectRefused(send(route, { rawBody: text }), 400);
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a string", "hello"],
  ])("answers 400 for %s instead of an object", async (_label, value) => {
    await expectRefused(send(route, { rawBody: JSON.stringify(value) }), 400);
  });

  it("answers 400 for a body that is not sent as JSON", async () => {
    const text = JSON.stringify(route.valid());
    await expectRefused(send(route, { rawBody: text, headers: { "Content-Type": "text/plain" } }), 400);
    await expectRefused(
      send(route, {
        rawBody: new URLSearchParams({ a: "b" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      400,
    );
  });

  it("answers 413 for a body over 64 KiB", async () => {
    const padded = JSON.stringify({ ...route.valid(), padding: "x".repeat(64 * 1024) });
    const body = await expectRefused(send(route, { rawBody: padded }), 413);
    expect(body.error).toBe("Request body is too large");
  });

  it("answers 413 for a body over 64 KiB streamed without a length", async () => {
    const padded = new TextEncoder().encode(
      JSON.stringify({ ...route.valid(), padding: "x".repeat(70 * 1024) }),
    );
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= padded.length) return controller.close();
        controller.enqueue(padded.slice(offset, offset + 8 * 1024));
        offset += 8 * 1024;
      },
    });
    // Straight into the worker's fetch handler: through a service binding the test's stream
    // pump logs a harmless "Network connection lost" once the worker stops reading.
    const headers = new Headers({ "Content-Type": "application/json" });
    const token = route.token();
    if (token) headers.set("Authorization", `Bearer ${token}`);
    const request = new Request(`${BASE}${route.path()}`, { method: route.method, headers, body: stream });
    await expectRefused(Promise.resolve(worker.fetch(request, env, createExecutionContext())), 413);
  });
});

describe("a body just under the limit", () => {
  it("is read and validated normally", async () => {
    const body = { weeklyDigest: false, timezone: `${"x".repeat(60)}` };
    const before = await tableCounts();
    // Valid JSON within the limit reaches validation: the unknown zone is refused by the rules, not the size.
    await expectError(
      await call("/api/user/preferences", { method: "PATCH", token: org.user.token, body }),
      400,
      /Unknown time zone/,
    );
    expect(await tableCounts()).toEqual(before);
  });
});

describe("unknown paths under /api", () => {
  it.each([
    ["GET", "/api"],
    ["GET", "/api/"],
    ["GET", "/api/nope"],
    ["POST", "/api/nope/deeper"],
    ["DELETE", "/api/health"],
    ["GET", "/api/auth/register"],
    ["PUT", "/api/user/profile"],
  ])("%s %s answers 404 JSON", async (method, path) => {
    const body = await expectError(await call(path, { method, token: org.owner.token }), 404);
    expect(body).toEqual({ error: "Not found", code: "not_found", details: { resource: "route" } });
  });

  it("answers 404 JSON without a token for a path no route serves", async () => {
    await expectError(await call("/api/definitely/not/here"), 404, "Not found");
  });
});

describe("audit log query strings", () => {
  it.each([
    ["an unknown parameter", "?isAdmin=1"],
    ["page 0", "?page=0"],
    ["a page that is not a number", "?page=two"],
    ["a page size over 200", "?pageSize=201"],
    ["a from that is not a date", "?from=yesterday"],
    ["from after to", "?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z"],
  ])("answers 400 for %s", async (_label, query) => {
    await expectRefused(call(`/api/admin/logs${query}`, { token: org.owner.token }), 400);
  });

  it("answers 200 for well-formed filters", async () => {
    await expectStatus(
      await call(
        "/api/admin/logs?page=1&pageSize=10&from=2020-01-01T00:00:00Z&to=2099-01-01T00:00:00%2B02:00",
        {
          token: org.owner.token,
        },
      ),
      200,
    );
  });
});
