import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../schema/api/api-keys";
import type { GeocodeResult, GeocodeSearch } from "../../../schema/api/geocode";
import {
  API_KEY_GEOCODE_SHARE,
  geocoderTimings,
  ORGANISATION_GEOCODE_SHARE,
} from "../../../worker/services/geocode";
import type { FairSlotRequest } from "../../../worker/throttle/fair-slots";
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
  // Each test its own organisation: together they send more lookups than one organisation's share.
  beforeEach(async () => {
    org = await createOrg("Geo Co");
  });

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

describe("sharing the geocoder between organisations", () => {
  const search = (address: string, token: string) =>
    call(`/api/geocode?address=${encodeURIComponent(address)}`, { token });

  it("answers 429 with Retry-After to an organisation past its share, while another's searches are answered", async () => {
    const busy = await createOrg("Busy Geo Co");
    const other = await createOrg("Other Geo Co");
    const sent: string[] = [];
    for (let i = 0; i < ORGANISATION_GEOCODE_SHARE.burst; i++) {
      sent.push(unique("Amsterdam"));
      await expectStatus(await search(sent.at(-1) ?? "", busy.user.token), 200);
    }
    const over = await search(unique("Amsterdam"), busy.user.token);
    const retryAfterS = Number(over.headers.get("Retry-After"));
    const error = await expectError(over, 429, /Too many address lookups/);
    expect(error.code).toBe("rate_limited");
    expect(retryAfterS).toBeGreaterThanOrEqual(1);
    expect(retryAfterS).toBeLessThanOrEqual(ORGANISATION_GEOCODE_SHARE.intervalMs / 1000);

    await expectStatus(await search(unique("Rotterdam"), other.user.token), 200);
    await expectStatus(await geocode({ address: unique("Utrecht") }, other.owner.token), 200);
    // What the cache answers costs no share.
    await expectStatus(await search(sent[0] ?? "", busy.owner.token), 200);
  }, 20_000);

  it("lets one organisation's burst hold one place in the queue, so another organisation is still served", async () => {
    const burst = await createOrg("Burst Geo Co");
    const other = await createOrg("Patient Geo Co");
    const flood = Promise.all(Array.from({ length: 12 }, () => search(unique("Berlin"), burst.user.token)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await expectStatus(await search(unique("Munich"), other.user.token), 200);
    // Within the global spacing: behind at most the burst's calls already in the queue.
    expect(Date.now() - started).toBeLessThan(3 * (timings.intervalMs + 150) + 1000);
    const statuses = (await flood).map((res) => res.status);
    expect(statuses.filter((status) => status === 503)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10);
  }, 20_000);

  it("gives an API key half its organisation's share and leaves the members the rest", async () => {
    const keyed = await createOrg("Keyed Geo Co");
    const { key } = await expectStatus<CreatedApiKey>(
      await call("/api/api-keys", {
        method: "POST",
        token: keyed.owner.token,
        body: { name: "address script", scope: "read" },
      }),
      201,
    );
    for (let i = 0; i < API_KEY_GEOCODE_SHARE.burst; i++) {
      await expectStatus(await search(unique("Milan"), key), 200);
    }
    await expectError(await search(unique("Milan"), key), 429, /Too many address lookups/);
    await expectStatus(await search(unique("Rome"), keyed.user.token), 200);
  }, 20_000);
});

describe("the fair queue", () => {
  const queue = () => env.THROTTLE.get(env.THROTTLE.idFromName(`fair-queue:test-${crypto.randomUUID()}`));
  const orgShare = (orgId: string) => ({ scope: `org:${orgId}`, policy: { burst: 3, intervalMs: 6000 } });
  const request = (orgId: string, now: number, extra: Partial<FairSlotRequest> = {}): FairSlotRequest => ({
    shares: [orgShare(orgId)],
    holder: `org:${orgId}`,
    maxWaitingPerHolder: 1,
    spacingMs: 1000,
    maxQueueMs: 5000,
    now,
    ...extra,
  });

  it("lets an organisation's burst through, then one call per interval, refusing without charging", async () => {
    const stub = queue();
    const t0 = 1_000_000;
    // Each call a queue spacing after the last, so only the share decides.
    expect(await stub.reserveFairSlot(request("a", t0))).toEqual({ outcome: "slot", slotAt: t0 });
    expect(await stub.reserveFairSlot(request("a", t0 + 1000))).toEqual({
      outcome: "slot",
      slotAt: t0 + 1000,
    });
    expect(await stub.reserveFairSlot(request("a", t0 + 2000))).toEqual({
      outcome: "slot",
      slotAt: t0 + 2000,
    });
    expect(await stub.reserveFairSlot(request("a", t0 + 3000))).toEqual({
      outcome: "over_share",
      retryAfterMs: 3000,
    });
    // Refused calls cost nothing: the next is due when the first refusal said.
    expect(await stub.reserveFairSlot(request("a", t0 + 5999))).toMatchObject({ outcome: "over_share" });
    expect(await stub.reserveFairSlot(request("a", t0 + 6000))).toEqual({
      outcome: "slot",
      slotAt: t0 + 6000,
    });
    expect(await stub.reserveFairSlot(request("b", t0 + 6000))).toEqual({
      outcome: "slot",
      slotAt: t0 + 7000,
    });
  });

  it("holds each organisation to its waiting calls and answers busy only when others fill the queue", async () => {
    const stub = queue();
    const t0 = 2_000_000;
    const wide = { maxWaitingPerHolder: 1, shares: [] };
    expect(await stub.reserveFairSlot(request("a", t0, wide))).toEqual({ outcome: "slot", slotAt: t0 });
    expect(await stub.reserveFairSlot(request("a", t0, wide))).toEqual({
      outcome: "slot",
      slotAt: t0 + 1000,
    });
    expect(await stub.reserveFairSlot(request("a", t0, wide))).toEqual({
      outcome: "over_share",
      retryAfterMs: 1000,
    });
    for (const [i, org] of ["b", "c", "d", "e"].entries()) {
      expect(await stub.reserveFairSlot(request(org, t0, wide))).toEqual({
        outcome: "slot",
        slotAt: t0 + 2000 + i * 1000,
      });
    }
    expect(await stub.reserveFairSlot(request("f", t0, wide))).toEqual({
      outcome: "busy",
      retryAfterMs: 1000,
    });
  });

  it("charges an API key's call to both shares or to neither", async () => {
    const stub = queue();
    const t0 = 3_000_000;
    const keyShare = { scope: "api-key:k", policy: { burst: 1, intervalMs: 60_000 } };
    const withKey = (now: number) => request("a", now, { shares: [orgShare("a"), keyShare] });
    expect(await stub.reserveFairSlot(withKey(t0))).toMatchObject({ outcome: "slot" });
    expect(await stub.reserveFairSlot(withKey(t0 + 1000))).toEqual({
      outcome: "over_share",
      retryAfterMs: 59_000,
    });
    // The refused key call took nothing from the organisation's share: two more members' calls go.
    expect(await stub.reserveFairSlot(request("a", t0 + 1000))).toMatchObject({ outcome: "slot" });
    expect(await stub.reserveFairSlot(request("a", t0 + 2000))).toMatchObject({ outcome: "slot" });
    expect(await stub.reserveFairSlot(request("a", t0 + 3000))).toMatchObject({ outcome: "over_share" });
  });
});
