import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { type ApiErrorCode, apiErrorStatus, typedApiErrorBodySchema } from "../../../schema/api/errors";
import { addMember, call, createRemovedUser, PASSWORD, registerOwner, uniqueEmail } from "../helpers";

const solis = sandboxAccounts.solis[0];

/** One failing call per code the API can be driven to answer from outside, and the code it must carry. */
async function failingCalls(): Promise<
  [label: string, expected: ApiErrorCode, request: () => Promise<Response>][]
> {
  const owner = await registerOwner();
  const member = await addMember(owner, "user");
  const removed = await createRemovedUser();
  const unverified = await registerOwner("Unproven Solar", undefined, { verified: false });
  return [
    [
      "a body that breaks its schema",
      "validation_failed",
      () => call("/api/auth/register", { method: "POST", body: { email: "not-an-email", password: "x" } }),
    ],
    [
      "malformed JSON",
      "invalid_request",
      () => call("/api/portfolios", { method: "POST", token: owner.token, rawBody: "{ not json" }),
    ],
    [
      "empty required credential fields",
      "missing_fields",
      () =>
        call("/api/credentials/solis/test", {
          method: "POST",
          token: owner.token,
          body: { credentials: { keyId: " ", keySecret: "" } },
        }),
    ],
    [
      "a CSV without the mapped column",
      "unreadable_file",
      () =>
        call("/api/providers/meteronline/import", {
          method: "POST",
          token: owner.token,
          body: {
            csv: "Datum;Installatie\n2026-01-01 10:00;A\n",
            mapping: { timestamp: "Datum", system: "Installatie", power: "Vermogen (kW)" },
            units: { power: "kW", energy: "kWh" },
            timezone: "Europe/Amsterdam",
          },
        }),
    ],
    [
      "a sync of a provider that is not connected",
      "not_found",
      () => call("/api/credentials/meteronline/sync", { method: "POST", token: owner.token }),
    ],
    ["no token", "unauthenticated", () => call("/api/sites")],
    [
      "a wrong password",
      "invalid_login",
      () =>
        call("/api/auth/login", { method: "POST", body: { email: owner.email, password: `${PASSWORD}!` } }),
    ],
    [
      "a member creating a portfolio",
      "forbidden",
      () => call("/api/portfolios", { method: "POST", token: member.token, body: { name: "Mine" } }),
    ],
    [
      "an account without organisation reading sites",
      "onboarding_required",
      () => call("/api/sites", { token: removed.token }),
    ],
    [
      "an owner whose address was never verified creating an API key",
      "email_not_verified",
      () =>
        call("/api/api-keys", {
          method: "POST",
          token: unverified.token,
          body: { name: "ci", scope: "read" },
        }),
    ],
    ["an unknown site", "not_found", () => call("/api/sites/no-such-site", { token: owner.token })],
    ["an unknown API path", "not_found", () => call("/api/no/such/route")],
    [
      "an email that already has an account",
      "conflict",
      () =>
        call("/api/auth/register", {
          method: "POST",
          body: { email: owner.email, password: PASSWORD, fullName: "Again", companyName: "Again Co" },
        }),
    ],
    [
      "a body over the JSON limit",
      "payload_too_large",
      () =>
        call("/api/portfolios", {
          method: "POST",
          token: owner.token,
          rawBody: JSON.stringify({ name: "x".repeat(70 * 1024) }),
        }),
    ],
    ["/ws without an upgrade", "upgrade_required", () => call("/ws")],
    [
      "credentials the vendor rejects",
      "provider_failure",
      () =>
        call("/api/credentials/solis/test", {
          method: "POST",
          token: owner.token,
          body: { credentials: { keyId: solis.keyId, keySecret: "wrong-secret" } },
        }),
    ],
    [
      "an invite for someone already a member",
      "conflict",
      () =>
        call("/api/users/invite", {
          method: "POST",
          token: owner.token,
          body: { email: member.email, role: "user" },
        }),
    ],
    [
      "a login with an unknown address",
      "invalid_login",
      () =>
        call("/api/auth/login", {
          method: "POST",
          body: { email: uniqueEmail("nobody"), password: PASSWORD },
        }),
    ],
  ];
}

describe("error codes", () => {
  it("answers every representative failure with a code of the enum, its status and its details", async () => {
    const seen = new Set<ApiErrorCode>();
    for (const [label, expected, request] of await failingCalls()) {
      const res = await request();
      const text = await res.text();
      const parsed = typedApiErrorBodySchema.safeParse(JSON.parse(text));
      expect(parsed.success, `${label}: ${text}`).toBe(true);
      const body = JSON.parse(text) as { code: ApiErrorCode };
      expect(body.code, `${label}: ${text}`).toBe(expected);
      // Provider failures caused by the user's input are 400s; every other code has one status.
      if (expected !== "provider_failure")
        expect(res.status, `${label}: ${text}`).toBe(apiErrorStatus[expected]);
      seen.add(body.code);
    }
    expect(seen.size).toBeGreaterThanOrEqual(13);
  });

  it("sends Retry-After with the seconds a rate-limited answer names", async () => {
    const owner = await registerOwner();
    let limited: Response | undefined;
    for (let attempt = 0; attempt < 30 && !limited; attempt++) {
      const res = await call("/api/auth/login", {
        method: "POST",
        body: { email: owner.email, password: "wrong password" },
      });
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    expect(limited, "no 429 after 30 failed logins").toBeDefined();
    const text = await (limited as Response).text();
    const parsed = typedApiErrorBodySchema.safeParse(JSON.parse(text));
    expect(parsed.success, text).toBe(true);
    const body = JSON.parse(text) as { code: string; details: { retryAfterSeconds: number } };
    expect(body.code).toBe("rate_limited");
    expect((limited as Response).headers.get("Retry-After")).toBe(String(body.details.retryAfterSeconds));
  });
});
