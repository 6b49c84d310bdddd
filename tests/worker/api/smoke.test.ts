import { describe, expect, it } from "vitest";
import { call, expectStatus, registerOwner } from "../helpers";

describe("health and registration", () => {
  it("answers health without a token", async () => {
    const body = await expectStatus<{ status: string; version: string }>(await call("/api/health"), 200);
    expect(body.status).toBe("ok");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("registers an owner whose profile shows the new organisation", async () => {
    const owner = await registerOwner("Sunny Co");
    const profile = await expectStatus<Record<string, unknown>>(
      await call("/api/user/profile", { token: owner.token }),
      200,
    );
    expect(profile).toMatchObject({ role: "orgOwner", companyName: "Sunny Co", onboardingRequired: false });
  });

  it("answers 404 JSON for an unknown api path", async () => {
    const body = await expectStatus<{ error: string }>(await call("/api/nope"), 404);
    expect(body.error).toBe("Not found");
  });
});
