import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { addMember, call, expectStatus, registerOwner } from "../helpers";

const solis = sandboxAccounts.solis[0];
const solisCredentials = { keyId: solis.keyId, keySecret: solis.keySecret };

describe("providers and their credential schemas", () => {
  it("lists the five providers with display names, meteronline first", async () => {
    const owner = await registerOwner();
    const providers = await expectStatus<{ name: string; displayName: string }[]>(
      await call("/api/providers", { token: owner.token }),
      200,
    );
    expect(providers.map((p) => p.name)).toEqual(["meteronline", "solis", "fronius", "sma", "solax"]);
    expect(providers.every((p) => p.displayName.length > 0)).toBe(true);
  });

  it("describes solis fields with the secret typed as password", async () => {
    const owner = await registerOwner();
    const schema = await expectStatus<{ fields: { field: string; type: string; required: boolean }[] }>(
      await call("/api/providers/solis/schema", { token: owner.token }),
      200,
    );
    expect(schema.fields.find((f) => f.field === "keySecret")).toMatchObject({
      type: "password",
      required: true,
    });
    expect(schema.fields.find((f) => f.field === "apiUrl")?.required).toBe(false);
  });

  it("answers 404 for an unknown provider", async () => {
    const owner = await registerOwner();
    await expectStatus(await call("/api/providers/acme/schema", { token: owner.token }), 404);
  });
});

describe("secrets", () => {
  it("never appear in any response after credentials are saved", async () => {
    const owner = await registerOwner();
    const responses: string[] = [];
    const record = async (res: Response) => {
      responses.push(await res.clone().text());
      return res;
    };
    await record(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
    );
    await record(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: owner.token,
        body: { credentials: solisCredentials },
      }),
    );
    for (const path of [
      "/api/credentials",
      "/api/providers",
      "/api/providers/solis/schema",
      "/api/providers/solis/runs",
      "/api/admin/logs",
    ]) {
      await record(await call(path, { token: owner.token }));
    }
    await record(await call("/api/providers/solis/sync", { method: "POST", token: owner.token }));
    expect(responses).toHaveLength(8);
    for (const body of responses) {
      expect(body).not.toContain(solis.keySecret);
      expect(body).not.toContain("credentials_ciphertext");
    }
  });
});

describe("testing credentials", () => {
  it("finds the sandbox account's sites without storing anything", async () => {
    const owner = await registerOwner();
    const result = await expectStatus<{ sitesFound: number; message: string }>(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: owner.token,
        body: { credentials: solisCredentials },
      }),
      200,
    );
    expect(result.sitesFound).toBe(3);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("refuses wrong credentials with a readable 400", async () => {
    const owner = await registerOwner();
    const body = await expectStatus<{ error: string; details: { kind: string } }>(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: owner.token,
        body: { credentials: { keyId: solis.keyId, keySecret: "wrong-secret" } },
      }),
      400,
    );
    expect(body.details.kind).toBe("auth");
    expect(body.error).toMatch(/SolisCloud/);
  });

  it("names the missing required fields the way the settings screen's toast reads them", async () => {
    const owner = await registerOwner();
    const body = await expectStatus<{ error: string; details: { missing: string[]; message: string } }>(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: owner.token,
        body: { credentials: { keyId: " ", keySecret: "" } },
      }),
      400,
    );
    expect(body.error).toBe("Missing required fields");
    expect(body.details.message).toBe("Please fill in: API Key ID, API Key Secret");
  });
});

describe("saving credentials and syncing", () => {
  it("stores encrypted credentials, syncs at once and reports the connection's health without secrets", async () => {
    const owner = await registerOwner();
    const saved = await expectStatus<{ message: string; sync: { status: string; sitesCount: number } }>(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
      201,
    );
    expect(saved.sync).toMatchObject({ status: "success", sitesCount: 3 });

    const listText = await (await call("/api/credentials", { token: owner.token })).text();
    expect(listText).not.toContain(solis.keySecret);
    const [configured] = JSON.parse(listText) as Record<string, unknown>[];
    expect(configured).toMatchObject({
      provider: "solis",
      status: "active",
      lastSyncStatus: "success",
      systemsCount: 3,
    });
    expect(configured?.newestDataAt).toEqual(expect.any(String));

    const row = await env.DB.prepare(
      "SELECT credentials_ciphertext AS c FROM provider_connections WHERE org_id = ?",
    )
      .bind(owner.orgId)
      .first<{ c: string }>();
    expect(row?.c).not.toContain(solis.keySecret);
    expect(atob(row?.c ?? "")).not.toContain(solis.keySecret);

    const synced = await expectStatus<{ sitesCount: number; invertersCount: number; message: string }>(
      await call("/api/providers/solis/sync", { method: "POST", token: owner.token }),
      200,
    );
    expect(synced.sitesCount).toBe(3);
    expect(synced.invertersCount).toBeGreaterThanOrEqual(6);
    expect(synced.message).toBe(
      `Successfully synced 3 sites and ${synced.invertersCount} inverters from SolisCloud`,
    );

    const runs = await expectStatus<{ trigger: string; status: string }[]>(
      await call("/api/providers/solis/runs", { token: owner.token }),
      200,
    );
    expect(runs.map((r) => r.trigger)).toEqual(["manual", "save"]);
    expect(runs.every((r) => r.status === "success")).toBe(true);
  });

  it("lets a user read connections but not change or sync them", async () => {
    const owner = await registerOwner();
    const user = await addMember(owner, "user");
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
      201,
    );
    await expectStatus(await call("/api/credentials", { token: user.token }), 200);
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: user.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
      403,
    );
    await expectStatus(await call("/api/providers/solis/sync", { method: "POST", token: user.token }), 403);
    await expectStatus(await call("/api/credentials/solis", { method: "DELETE", token: user.token }), 403);
    await expectStatus(
      await call("/api/credentials/solis/test", {
        method: "POST",
        token: user.token,
        body: { credentials: solisCredentials },
      }),
      403,
    );
  });

  it("keeps each organisation's connections to itself", async () => {
    const owner = await registerOwner();
    const other = await registerOwner("Other Co");
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
      201,
    );
    expect(await expectStatus(await call("/api/credentials", { token: other.token }), 200)).toEqual([]);
    await expectStatus(await call("/api/providers/solis/sync", { method: "POST", token: other.token }), 404);
    await expectStatus(await call("/api/providers/solis/runs", { token: other.token }), 404);
    await expectStatus(await call("/api/credentials/solis", { method: "DELETE", token: other.token }), 404);
  });

  it("removes a connection but keeps the systems already synced", async () => {
    const owner = await registerOwner();
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials },
      }),
      201,
    );
    await expectStatus(await call("/api/credentials/solis", { method: "DELETE", token: owner.token }), 200);
    expect(await expectStatus(await call("/api/credentials", { token: owner.token }), 200)).toEqual([]);
    const systems = await env.DB.prepare("SELECT count(*) AS n FROM monitoring_systems WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(systems?.n).toBe(3);
  });

  it("refuses unknown credential fields and unknown body fields", async () => {
    const owner = await registerOwner();
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: { ...solisCredentials, extra: "x" } },
      }),
      400,
    );
    await expectStatus(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solis", credentials: solisCredentials, extra: 1 },
      }),
      400,
    );
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM provider_connections WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });
});
