import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ApiKey, CreatedApiKey } from "../../../schema/api/api-keys";
import type { Portfolio } from "../../../schema/api/portfolios";
import { API_KEY_REQUESTS_PER_MINUTE } from "../../../worker/services/api-keys";
import {
  auditLog,
  call,
  createOrg,
  entriesFor,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

async function createKey(actor: TestUser, scope: "read" | "write", name = `${scope} key`) {
  return expectStatus<CreatedApiKey>(
    await call("/api/api-keys", { method: "POST", token: actor.token, body: { name, scope } }),
    201,
  );
}

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
