import { beforeAll, describe, expect, it } from "vitest";
import { type Timezone, timezoneSchema } from "../../../schema/api/preferences";
import { isKnownTimezone } from "../../../worker/domain/timezones";
import { call, expectRejectsBadTokens, expectStatus, registerOwner, type TestUser } from "../helpers";

let owner: TestUser;
let zones: Timezone[];
const zone = (value: string) => zones.find((z) => z.value === value);

beforeAll(async () => {
  owner = await registerOwner();
  zones = await expectStatus<Timezone[]>(await call("/api/timezones", { token: owner.token }), 200);
});

describe("GET /api/timezones", () => {
  it("lists hundreds of zones, each with value, label, offset and region", () => {
    expect(zones.length).toBeGreaterThan(300);
    for (const entry of zones) {
      expect(timezoneSchema.strict().parse(entry)).toEqual(entry);
      expect(entry.offset, entry.value).toMatch(/^UTC[+-]\d{2}:\d{2}$/);
      expect(entry.label, entry.value).toContain(entry.offset);
      expect(entry.region.length, entry.value).toBeGreaterThan(0);
    }
  });

  it("lists every zone of the runtime once, under its current IANA name", () => {
    // The runtime's own id for a zone, whatever name (old or new) it is asked with.
    const canonical = (name: string) =>
      new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
    const listed = new Map<string, string>();
    for (const { value } of zones) {
      const id = canonical(value);
      expect(listed.get(id), `${value} and ${listed.get(id)} are one zone`).toBeUndefined();
      listed.set(id, value);
    }
    for (const name of ["UTC", ...Intl.supportedValuesOf("timeZone")]) {
      expect(listed.has(canonical(name)), name).toBe(true);
    }
  });

  it("includes UTC at offset zero", () => {
    expect(zone("UTC")).toMatchObject({ offset: "UTC+00:00", region: "UTC" });
  });

  it("includes Europe/Amsterdam with its CET or CEST offset", () => {
    expect(zone("Europe/Amsterdam")).toMatchObject({ region: "Europe" });
    expect(zone("Europe/Amsterdam")?.offset).toMatch(/^UTC\+0[12]:00$/);
    expect(zone("Europe/Amsterdam")?.label).toContain("Amsterdam");
  });

  it("includes America/New_York with its EST or EDT offset", () => {
    expect(zone("America/New_York")).toMatchObject({ region: "America" });
    expect(zone("America/New_York")?.offset).toMatch(/^UTC-0[45]:00$/);
    expect(zone("America/New_York")?.label).toContain("New York");
  });

  it("includes Asia/Kolkata at UTC+05:30", () => {
    expect(zone("Asia/Kolkata")).toMatchObject({ region: "Asia", offset: "UTC+05:30" });
  });

  it("uses current IANA names where the runtime still carries renamed ones", () => {
    for (const current of ["Europe/Kyiv", "Asia/Ho_Chi_Minh", "America/Nuuk"])
      expect(zone(current), current).toBeDefined();
    for (const renamed of ["Asia/Calcutta", "Europe/Kiev", "Asia/Saigon"])
      expect(zone(renamed), renamed).toBeUndefined();
  });

  it("offers only zones that preferences accept", () => {
    for (const { value } of zones) expect(isKnownTimezone(value), value).toBe(true);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens({ method: "GET", path: "/api/timezones" }, owner);
  });
});
