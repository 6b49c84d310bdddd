import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  dummyPasswordHash,
  hashPassword,
  PASSWORD_ITERATIONS,
  passwordIterations,
  verifyPassword,
} from "../../../worker/lib/password";

describe("password hashing cost", () => {
  it("is 100,000 iterations outside the test environment, whatever PASSWORD_ITERATIONS says", () => {
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    expect(passwordIterations({ APP_ENV: "production", PASSWORD_ITERATIONS: "1000" })).toBe(100_000);
    expect(passwordIterations({ APP_ENV: "development", PASSWORD_ITERATIONS: "1000" })).toBe(100_000);
    expect(passwordIterations({ APP_ENV: "production" })).toBe(100_000);
  });

  it("takes a lower PASSWORD_ITERATIONS in the test environment, and ignores unusable values", () => {
    expect(passwordIterations({ APP_ENV: "test", PASSWORD_ITERATIONS: "1000" })).toBe(1000);
    expect(passwordIterations({ APP_ENV: "test" })).toBe(100_000);
    for (const value of ["0", "-5", "1.5", "many", "200000"]) {
      expect(passwordIterations({ APP_ENV: "test", PASSWORD_ITERATIONS: value }), value).toBe(100_000);
    }
  });

  it("runs this suite with the lowered count", () => {
    expect(passwordIterations(env)).toBe(1000);
  });

  it("stores the count with each hash and verifies against the stored count", async () => {
    const stored = await hashPassword("correct horse battery", 1000);
    expect(stored.iterations).toBe(1000);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("wrong horse battery", stored)).toBe(false);
    expect(await verifyPassword("correct horse battery", { ...stored, iterations: 1001 })).toBe(false);
  });

  it("compares unknown emails against a dummy hash of the same cost", async () => {
    expect((await dummyPasswordHash(1000)).iterations).toBe(1000);
    expect((await dummyPasswordHash()).iterations).toBe(100_000);
  });
});
