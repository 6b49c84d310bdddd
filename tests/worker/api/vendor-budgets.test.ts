import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import type { SyncResult } from "../../../schema/api/providers";
import { budgetName } from "../../../worker/providers/budget";
import { BUDGET_WAIT_LIMIT_MS } from "../../../worker/providers/http";
import { providerBudget } from "../../../worker/providers/registry";
import { solisAdapter } from "../../../worker/providers/solis";
import { CONNECTION_TEST_SHARE } from "../../../worker/services/connections";
import { call, expectError, expectStatus, registerOwner, type TestUser } from "../helpers";

const solis = sandboxAccounts.solis[0];
const [fronius, booked] = sandboxAccounts.fronius;
const solisCredentials = { keyId: solis.keyId, keySecret: solis.keySecret };
const froniusCredentials = { accessKeyId: fronius.accessKeyId, accessKeyValue: fronius.accessKeyValue };
// An account of its own for the test that books its budget ahead (storage lasts the whole file).
const bookedCredentials = { accessKeyId: booked.accessKeyId, accessKeyValue: booked.accessKeyValue };

const testConnection = (actor: TestUser, provider: string, credentials: Record<string, string>) =>
  call(`/api/credentials/${provider}/test`, { method: "POST", token: actor.token, body: { credentials } });

const save = (actor: TestUser, provider: string, credentials: Record<string, string>) =>
  call("/api/credentials", { method: "POST", token: actor.token, body: { provider, credentials } });

describe("a credential's vendor budget", () => {
  it("takes no slot from another organisation's connection tests with its key id and a wrong secret, and its sync proceeds", async () => {
    const victim = await registerOwner("Budget Victim Co");
    const other = await registerOwner("Key Id Guesser Co");
    // Six tests at once: with one bucket per key id they would book its next 3 s of SolisCloud calls.
    const guesses = await Promise.all(
      Array.from({ length: 6 }, () =>
        testConnection(other, "solis", { keyId: solis.keyId, keySecret: "guessed-secret" }),
      ),
    );
    for (const answer of guesses) {
      const error = await expectError(answer, 400);
      expect(error.details).toMatchObject({ provider: "solis", kind: "auth" });
    }
    const bucketOf = async (keySecret: string) =>
      env.VENDOR_BUDGET.get(env.VENDOR_BUDGET.idFromName(await budgetName("solis", solis.keyId, keySecret)));
    const slotsHeld = async (keySecret: string) =>
      runInDurableObject(
        await bucketOf(keySecret),
        (_budget, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM slots").one().n,
      );
    expect(await slotsHeld("guessed-secret")).toBeGreaterThan(0);
    expect(await slotsHeld(solis.keySecret)).toBe(0);
    const victimBudget = await providerBudget(env, solisAdapter, solisCredentials);
    expect(await victimBudget.reserve("/v1/api/userStationList", Date.now())).toBe(0);

    const saved = await expectStatus<{ sync: SyncResult }>(
      await save(victim, "solis", solisCredentials),
      201,
    );
    expect(saved.sync).toMatchObject({ status: "success", sitesCount: 3 });
  }, 30_000);

  it("fails a sync rate_limited at once when the credential's next slot is further off than its cadence", async () => {
    const owner = await registerOwner("Booked Budget Co");
    // The credential's bucket booked ten minutes ahead, as its other users could have done.
    const bucket = env.VENDOR_BUDGET.get(
      env.VENDOR_BUDGET.idFromName(await budgetName("fronius", booked.accessKeyId, booked.accessKeyValue)),
    );
    await bucket.reserve("*", [{ intervalMs: 2 * BUDGET_WAIT_LIMIT_MS, burst: 1 }], Date.now());

    const started = Date.now();
    const saved = await expectStatus<{ message: string; sync: SyncResult }>(
      await save(owner, "fronius", bookedCredentials),
      201,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(saved.sync.status).toBe("failed");
    expect(saved.sync.message).toMatch(/booked \d+ s ahead/);
    const [run] = await expectStatus<{ status: string; errorKind: string | null }[]>(
      await call("/api/providers/fronius/runs", { token: owner.token }),
      200,
    );
    expect(run).toMatchObject({ status: "failed", errorKind: "rate_limited" });
  }, 30_000);
});

describe("connection tests", () => {
  it("answers 429 rate_limited with Retry-After to an organisation's tests past 10 a minute, and leaves others theirs", async () => {
    const busy = await registerOwner("Busy Tester Co");
    const other = await registerOwner("Other Tester Co");
    const wrong = { ...froniusCredentials, accessKeyValue: "not-the-value" };
    for (let i = 0; i < CONNECTION_TEST_SHARE.burst; i++) {
      await expectError(await testConnection(busy, "fronius", wrong), 400);
    }
    const refused = await testConnection(busy, "fronius", froniusCredentials);
    const retryAfterS = Number(refused.headers.get("Retry-After"));
    const error = await expectError(refused, 429, /Too many connection tests/);
    expect(error.code).toBe("rate_limited");
    expect(retryAfterS).toBeGreaterThanOrEqual(1);
    expect(retryAfterS).toBeLessThanOrEqual(CONNECTION_TEST_SHARE.intervalMs / 1000);

    const found = await expectStatus<{ sitesFound: number }>(
      await testConnection(other, "fronius", froniusCredentials),
      200,
    );
    expect(found.sitesFound).toBe(3);
  });

  it("counts no test that never reaches a vendor", async () => {
    const owner = await registerOwner("Careful Tester Co");
    for (let i = 0; i < CONNECTION_TEST_SHARE.burst + 2; i++) {
      await expectError(await testConnection(owner, "fronius", { accessKeyId: "not-fkia" }), 400);
    }
    await expectStatus(await testConnection(owner, "fronius", froniusCredentials), 200);
  });
});
