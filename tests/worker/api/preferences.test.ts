import { describe, expect, it } from "vitest";
import { type Preferences, preferencesSchema } from "../../../schema/api/preferences";
import {
  call,
  createOrg,
  createRemovedUser,
  createSuperAdmin,
  expectError,
  expectNothingWritten,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
  type TestUser,
} from "../helpers";

const DEFAULT_PREFERENCES: Preferences = {
  monthlyReports: true,
  weeklyDigest: true,
  realtimeAlerts: true,
  timezone: "UTC",
  language: "en",
};

const read = async (user: TestUser) =>
  expectStatus<Preferences>(await call("/api/user/preferences", { token: user.token }), 200);

const patch = (user: TestUser, body: unknown) =>
  call("/api/user/preferences", { method: "PATCH", token: user.token, body });

describe("GET /api/user/preferences", () => {
  it("answers the default preferences for someone who never saved any", async () => {
    const owner = await registerOwner();
    const prefs = await read(owner);
    expect(preferencesSchema.strict().parse(prefs)).toEqual(prefs);
    expect(prefs).toEqual(DEFAULT_PREFERENCES);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/user/preferences" }, await registerOwner());
  });
});

describe("PATCH /api/user/preferences", () => {
  it("changes the fields sent and keeps the others", async () => {
    const owner = await registerOwner();
    const updated = await expectStatus<Preferences>(
      await patch(owner, { weeklyDigest: false, language: "fr" }),
      200,
    );
    expect(updated).toEqual({ ...DEFAULT_PREFERENCES, weeklyDigest: false, language: "fr" });
    expect(await read(owner)).toEqual(updated);
    const again = await expectStatus<Preferences>(await patch(owner, { timezone: "Asia/Kolkata" }), 200);
    expect(again).toEqual({
      ...DEFAULT_PREFERENCES,
      weeklyDigest: false,
      language: "fr",
      timezone: "Asia/Kolkata",
    });
  });

  it("accepts the full object the settings screen sends", async () => {
    const owner = await registerOwner();
    const full: Preferences = {
      monthlyReports: false,
      weeklyDigest: true,
      realtimeAlerts: false,
      timezone: "America/New_York",
      language: "es",
    };
    expect(await expectStatus<Preferences>(await patch(owner, full), 200)).toEqual(full);
    expect(await read(owner)).toEqual(full);
  });

  it("edits only the caller's own preferences", async () => {
    const { owner, user } = await createOrg();
    await expectStatus(await patch(user, { realtimeAlerts: false, timezone: "Europe/Amsterdam" }), 200);
    expect(await read(owner)).toEqual(DEFAULT_PREFERENCES);
    expect(await read(user)).toMatchObject({ realtimeAlerts: false, timezone: "Europe/Amsterdam" });
  });

  it("is open to every role, a superAdmin and a user without an organisation", async () => {
    const { owner, engineer, user } = await createOrg();
    for (const person of [owner, engineer, user, await createSuperAdmin(), await createRemovedUser()]) {
      expect(
        await expectStatus<Preferences>(await patch(person, { monthlyReports: false }), 200),
      ).toMatchObject({
        monthlyReports: false,
      });
    }
  });

  it.each([
    ["a zone that does not exist", "Mars/Olympus_Mons"],
    ["a UTC offset instead of a zone", "+05:30"],
    ["a lower-cased zone name", "europe/amsterdam"],
    ["an empty string", ""],
  ])("answers 400 for %s and writes nothing", async (_label, timezone) => {
    const owner = await registerOwner();
    await expectStatus(await patch(owner, { weeklyDigest: false }), 200);
    await expectNothingWritten(async () => {
      const body = await expectError(await patch(owner, { timezone, monthlyReports: false }), 400);
      expect(body.details).toEqual([expect.objectContaining({ path: ["timezone"] })]);
    });
    expect(await read(owner)).toEqual({ ...DEFAULT_PREFERENCES, weeklyDigest: false });
  });

  it.each(["de", "EN", "english", ""])(
    "answers 400 for the unsupported language %j and writes nothing",
    async (language) => {
      const owner = await registerOwner();
      await expectNothingWritten(async () => {
        const body = await expectError(await patch(owner, { language }), 400, "Invalid input");
        expect(body.details).toEqual([expect.objectContaining({ path: ["language"] })]);
      });
      expect(await read(owner)).toEqual(DEFAULT_PREFERENCES);
    },
  );

  it("answers 400 for a non-boolean flag", async () => {
    const owner = await registerOwner();
    await expectNothingWritten(async () => {
      await expectError(await patch(owner, { monthlyReports: "true" }), 400);
    });
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      { method: "PATCH", path: "/api/user/preferences", body: { weeklyDigest: false } },
      await registerOwner(),
    );
  });
});
