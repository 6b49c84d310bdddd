import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import type { ProviderId } from "../../../schema/api/providers";
import { findApiAdapter } from "../../../worker/providers/registry";
import { call, expectStatus, registerOwner } from "../helpers";

/** What a user types in Settings → Provider Credentials for each sandbox account. */
const forms: [ProviderId, Record<string, string>][] = [
  ["solis", { keyId: sandboxAccounts.solis[0].keyId, keySecret: sandboxAccounts.solis[0].keySecret }],
  [
    "fronius",
    {
      accessKeyId: sandboxAccounts.fronius[0].accessKeyId,
      accessKeyValue: sandboxAccounts.fronius[0].accessKeyValue,
    },
  ],
  [
    "sma",
    {
      clientId: sandboxAccounts.sma[0].clientId,
      clientSecret: sandboxAccounts.sma[0].clientSecret,
      ownerEmail: sandboxAccounts.sma[0].ownerEmail,
    },
  ],
  [
    "solax",
    {
      apiType: "token",
      tokenId: sandboxAccounts.solax[0].tokenId,
      wifiSns: sandboxAccounts.solax[0].wifiSns.join(", "),
    },
  ],
  [
    "solax",
    {
      apiType: "openapi",
      clientId: sandboxAccounts.solax[0].clientId,
      clientSecret: sandboxAccounts.solax[0].clientSecret,
    },
  ],
];

/**
 * The credentials are stored as the schema's output and parsed again by every sync, so each
 * provider's schema must read its own output back unchanged.
 */
describe("stored credentials", () => {
  it.each(forms)("%s: the parsed form parses again to itself", (provider, form) => {
    const adapter = findApiAdapter(provider);
    if (!adapter) throw new Error(`${provider} has an API adapter`);
    const stored = adapter.credentialsSchema.parse(form);
    expect(adapter.credentialsSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });

  // SolaX's token API is the one whose stored form differs from the typed one (a dongle list).
  // One dongle here: its 10 calls a minute put 7 s between any two calls, so each further dongle
  // adds 7 s to every sync (the list's parsing is the round trip above).
  it("solax token API: saving the form syncs the dongle, and so does the next sync", async () => {
    const credentials = {
      apiType: "token",
      tokenId: sandboxAccounts.solax[0].tokenId,
      wifiSns: sandboxAccounts.solax[0].wifiSns[0],
    };
    const owner = await registerOwner();
    const saved = await expectStatus<{ sync: { status: string; sitesCount: number } }>(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: "solax", credentials },
      }),
      201,
    );
    expect(saved.sync).toMatchObject({ status: "success", sitesCount: 1 });
    // A second sync reads the stored credentials back, as the cron's syncs do.
    const again = await expectStatus<{ sitesCount: number }>(
      await call("/api/providers/solax/sync", { method: "POST", token: owner.token }),
      200,
    );
    expect(again.sitesCount).toBe(1);
  }, 60_000);
});
