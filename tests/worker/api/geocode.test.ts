import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { GeocodeResult, GeocodeSearch } from "../../../schema/api/geocode";
import { geocoderTimings } from "../../../worker/services/geocode";
import {
  call,
  createOrg,
  createSuperAdmin,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  type TestOrg,
} from "../helpers";

/** The sandbox geocoder, reached the way the worker reaches it (the outbound sandbox). */
const SANDBOX_GEOCODER = "http://sandbox.test/geocoder";

interface SandboxCall {
  q: string;
  at: number;
  userAgent: string;
}

/** The searches the sandbox geocoder received for exactly this query (it is shared by every test file). */
async function callsFor(q: string): Promise<SandboxCall[]> {
  const res = await fetch(`${SANDBOX_GEOCODER}/__calls`);
  const body = (await res.json()) as { calls: SandboxCall[] };
  return body.calls.filter((c) => c.q === q);
}

/** Every test uses its own spelling, so cache hits and sandbox counts never cross tests. */
let counter = 0;
const unique = (address: string) => `${address} ${++counter}-${crypto.randomUUID().slice(0, 6)}`;

const cacheRows = async () =>
  (await env.DB.prepare("SELECT count(*) AS n FROM geocode_cache").first<{ n: number }>())?.n ?? 0;

let org: TestOrg;
const timings = geocoderTimings(env);

beforeAll(async () => {
  org = await createOrg("Geo Co");
});

const geocode = (body: unknown, token = org.owner.token) =>
  call("/api/geocode", { method: "POST", token, body });

describe("verifying an address (POST /api/geocode)", () => {
  it("answers the best match with formatted address, coordinates, city, state and country", async () => {
    const result = await expectStatus<GeocodeResult>(
      await geocode({ address: "Keizersgracht 123, Amsterdam" }, org.user.token),
      200,
    );
    expect(result).toEqual({
      formattedAddress:
        "123, Keizersgracht, Grachtengordel-West, Amsterdam, Noord-Holland, Nederland, 1015 CJ, Nederland",
      latitude: 52.3752,
      longitude: 4.8862,
      city: "Amsterdam",
      state: "Noord-Holland",
      country: "Nederland",
      countryCode: "NL",
      postcode: "1015 CJ",
    });
  });

  it("narrows the search to the country asked for", async () => {
    const inItaly = await expectStatus<GeocodeResult>(await geocode({ address: "Rome", country: "IT" }), 200);
    expect(inItaly).toMatchObject({ city: "Roma", countryCode: "IT" });
    expect(inItaly.latitude).toBeCloseTo(41.89, 2);
    const error = await expectError(
      await geocode({ address: "Rome", country: "US" }),
      404,
      "Address not found",
    );
    expect(error.details).toMatchObject({ address: "Rome", country: "US" });
  });

  it("answers 404 'Address not found' with details for an unknown address", async () => {
    const error = await expectError(
      await geocode({ address: "Nowhere Lane 999, Atlantis" }),
      404,
      "Address not found",
    );
    expect(error.details).toMatchObject({
      address: "Nowhere Lane 999, Atlantis",
      message: expect.stringContaining("No place matches"),
    });
  });

  it("answers 404 when the geocoder answers an empty list", async () => {
    await expectError(await geocode({ address: unique("Damrak __empty") }), 404, "Address not found");
  });
});

describe("address autocomplete (GET /api/geocode)", () => {
  it("answers every match, the most specific first", async () => {
    const search = await expectStatus<GeocodeSearch>(
      await call(`/api/geocode?address=${encodeURIComponent("Amsterdam")}`, { token: org.user.token }),
      200,
    );
    expect(search.results.length).toBeGreaterThanOrEqual(3);
    expect(search.results[0]).toMatchObject({
      city: "Amsterdam",
      formattedAddress: "Amsterdam, Noord-Holland, Nederland",
    });
    expect(search.results.every((r) => r.countryCode === "NL")).toBe(true);
  });

  it("answers an empty list (not an error) when nothing matches", async () => {
    const search = await expectStatus<GeocodeSearch>(
      await call(`/api/geocode?address=${encodeURIComponent("Zzyzx Nowhere Road")}`, {
        token: org.owner.token,
      }),
      200,
    );
    expect(search.results).toEqual([]);
  });
});

describe("talking to the geocoder", () => {
  it("sends an identifying User-Agent and caches the answer: a repeated query never reaches the geocoder", async () => {
    const address = unique("Damrak 1, Amsterdam");
    const first = await expectStatus<GeocodeResult>(await geocode({ address }), 200);
    expect(first.formattedAddress).toContain("Damrak");
    const sent = await callsFor(address);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.userAgent).toMatch(/^Sunfleet\/\d+\.\d+\.\d+ \(\+https?:\/\/\S+\)$/);

    // The same query, differently spaced and cased, from POST and GET alike.
    const again = await expectStatus<GeocodeResult>(
      await geocode({ address: `  ${address.toUpperCase()} ` }),
      200,
    );
    expect(again).toEqual(first);
    const listed = await expectStatus<GeocodeSearch>(
      await call(`/api/geocode?address=${encodeURIComponent(address)}`, { token: org.user.token }),
      200,
    );
    expect(listed.results[0]).toEqual(first);
    expect(await callsFor(address)).toHaveLength(1);
  });

  it("caches 'not found' too", async () => {
    const address = unique("__empty Nowhere");
    await expectError(await geocode({ address }), 404);
    await expectError(await geocode({ address }), 404);
    expect(await callsFor(address)).toHaveLength(1);
  });

  it("spaces calls to the geocoder at least the interval apart (a second outside the tests)", async () => {
    const first = unique("Utrecht");
    const second = unique("Rotterdam");
    await expectStatus(await geocode({ address: first }), 200);
    await expectStatus(await geocode({ address: second }), 200);
    const [a] = await callsFor(first);
    const [b] = await callsFor(second);
    if (!a || !b) throw new Error("the sandbox saw no call");
    // The sandbox clock is real time in another process: allow a few ms of scheduling jitter.
    expect(b.at - a.at).toBeGreaterThanOrEqual(timings.intervalMs - 50);
  });

  it.each([
    ["is down (500)", "__fail_500", /failed \(HTTP 500\)/, "upstream_error"],
    ["is unavailable (503)", "__fail_503", /failed \(HTTP 503\)/, "upstream_error"],
    ["rate-limits us (429)", "__fail_429", /limiting our requests/, "rate_limited"],
    ["answers something that is not JSON", "__malformed", /could not be read/, "malformed"],
  ])(
    "answers 502 with a readable error when the geocoder %s, and caches nothing",
    async (_label, magic, message, reason) => {
      const address = unique(`Berlin ${magic}`);
      const before = await cacheRows();
      const error = await expectError(await geocode({ address }), 502, message);
      expect(error.details).toMatchObject({ service: "geocoder", reason });
      expect(await cacheRows()).toBe(before);
      // Failures are not cached: the next try asks again.
      await expectError(await geocode({ address }), 502);
      expect(await callsFor(address)).toHaveLength(2);
    },
  );

  it("keeps the policy's second and the 5 s limit outside the test environment", () => {
    expect(timings.intervalMs).toBeLessThan(1000);
    expect(geocoderTimings({ ...env, APP_ENV: "production" })).toEqual({ intervalMs: 1000, timeoutMs: 5000 });
    expect(geocoderTimings({ ...env, GEOCODER_INTERVAL_MS: "5000", GEOCODER_TIMEOUT_MS: "x" })).toEqual({
      intervalMs: 1000,
      timeoutMs: 5000,
    });
  });

  it("answers 502 when the geocoder does not answer in time", async () => {
    const error = await expectError(
      await geocode({ address: unique("Munich __slow") }),
      502,
      new RegExp(`did not answer within ${timings.timeoutMs / 1000} s`),
    );
    expect(error.details).toMatchObject({ reason: "timeout" });
  }, 20_000);
});

describe("bad input and access", () => {
  it.each([
    ["no address", {}, "Address required: Please enter an address to search for"],
    ["a blank address", { address: "   " }, "Address required: Please enter an address to search for"],
    [
      "a country that is not a two-letter code",
      { address: "Rome", country: "Italy" },
      "Country must be a two-letter code",
    ],
    ["an unknown field", { address: "Rome", zoom: 3 }, "Unrecognized key"],
  ])("refuses %s with 400 and the reason", async (_label, body, message) => {
    const error = await expectError(await geocode(body), 400, "Invalid input");
    expect(JSON.stringify(error.details)).toContain(message);
  });

  it("refuses malformed JSON and a missing query parameter", async () => {
    await expectError(
      await call("/api/geocode", { method: "POST", token: org.owner.token, rawBody: '{"address":' }),
      400,
    );
    await expectError(await call("/api/geocode", { token: org.owner.token }), 400, "Invalid input");
  });

  it("is open to every member of an organisation but not to accounts outside one", async () => {
    await expectStatus(await geocode({ address: "London" }, org.engineer.token), 200);
    const admin = await createSuperAdmin();
    await expectError(await geocode({ address: "London" }, admin.token), 403);
  });

  it("rejects missing, invalid and expired tokens", async () => {
    await expectRejectsBadTokens(
      { method: "POST", path: "/api/geocode", body: { address: "London" } },
      org.owner,
    );
    await expectRejectsBadTokens({ method: "GET", path: "/api/geocode?address=London" }, org.owner);
  });
});
