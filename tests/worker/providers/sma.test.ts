import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import {
  dataTimeAt,
  inverterEnergyTodayWh,
  inverterPowerW,
  plantPowerW,
  simulatedPlants,
} from "../../../sandbox/simulation";
import { dataAsOf, type SmaSimPlant, smaPlants } from "../../../sandbox/sma";
import { isStale, STALE_AFTER_MS } from "../../../worker/domain/fleet-rules";
import { StaleListsError } from "../../../worker/providers/errors";
import { smaAdapter } from "../../../worker/providers/sma";
import { SmaClient } from "../../../worker/providers/sma/client";
import type { SmaCredentials } from "../../../worker/providers/sma/credentials";
import { plantLocalTimesToUtcMs } from "../../../worker/providers/sma/normalise";
import type {
  KnownSystem,
  NormalisedSystem,
  ProviderSession,
  ProviderSnapshot,
} from "../../../worker/providers/types";
import consentExample from "../../fixtures/provider-examples/sma/bc-authorize-status.json";
import dayExample from "../../fixtures/provider-examples/sma/device-EnergyAndPowerPv-Day.json";
import setsExample from "../../fixtures/provider-examples/sma/device-measurement-sets.json";
import tokenExample from "../../fixtures/provider-examples/sma/oauth2-token.json";
import plantExample from "../../fixtures/provider-examples/sma/plant.json";
import devicesExample from "../../fixtures/provider-examples/sma/plant-devices-lean.json";
import plantsExample from "../../fixtures/provider-examples/sma/plants.json";
import { asKnown, readAllPages } from "./all-pages";
import {
  answersFetch,
  callContext,
  type Fetch,
  failure,
  movableClock,
  SANDBOX_ORIGIN,
  sandboxFetch,
  testSession,
} from "./harness";

const BUCKET_MS = 5 * 60_000;

/**
 * The plant's energy on its local day of `now`, as SMA measured it from its inverters' 5-minute
 * buckets: up to the newest data SMA holds, the bucket under way counting what it measured so far (Wh).
 */
function dayEnergyWh(plant: SmaSimPlant, now: number): number {
  const asOf = dataAsOf(plant, now);
  let energyWh = 0;
  const midnight = DateTime.fromMillis(now, { zone: plant.timezone }).startOf("day").toMillis();
  for (let t = midnight; t < asOf; t += BUCKET_MS)
    energyWh += (plantPowerW(plant, t) * Math.min(BUCKET_MS, asOf - t)) / 3_600_000;
  return energyWh;
}

/** The time of the newest measurement SMA holds for the plant at `now` (its Recent set's, on 5 minutes). */
const newestMeasurementAt = (plant: SmaSimPlant, now: number) => dataTimeAt(dataAsOf(plant, now));

/** The plant's live power at `now`: its inverters' sum at the newest measurement, none once that is stale. */
function livePowerW(plant: SmaSimPlant, now: number): number | null {
  const measuredAt = newestMeasurementAt(plant, now);
  return now - measuredAt > STALE_AFTER_MS ? null : plantPowerW(plant, measuredAt);
}

/** 12:00 in Amsterdam, on a 5-minute boundary so the vendor's data time is the instant itself. */
const FIXED_NOW = Date.UTC(2024, 6, 1, 10, 0);
const [sandboxAccount, benchAccount] = sandboxAccounts.sma;
/** The small account's plants: three simulated ones, then its quirk plants (sandbox/accounts.ts). */
const sandboxPlants = smaPlants(sandboxAccount);
const credentials: SmaCredentials = {
  clientId: sandboxAccount.clientId,
  clientSecret: sandboxAccount.clientSecret,
  ownerEmail: sandboxAccount.ownerEmail,
};

interface HarnessOptions {
  now?: number;
  fault?: string;
  /** Which requests get the fault header; all of them when absent. */
  faultWhen?: (url: URL) => boolean;
  timeoutMs?: number;
  session?: ProviderSession;
  /** The plants offer no plant-level data set: SMA refuses those calls (400). */
  noPlantSets?: boolean;
}

const PLANT_SET = /^\/sma\/v1\/plants\/[^/]+\/measurements\//;

/** The adapter's call context wired to one sandbox, with a clock the test can move. */
function sandboxHarness(options: HarnessOptions = {}) {
  const clock = movableClock(options.now ?? FIXED_NOW);
  const sandbox = createSandbox({ now: clock.now });
  const calls: string[] = [];
  /** Every request's path with its query. */
  const urls: string[] = [];
  const vendor = sandboxFetch(sandbox, { fault: options.fault, faultWhen: options.faultWhen });
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}`);
    urls.push(`${url.pathname}${url.search}`);
    if (options.noPlantSets && PLANT_SET.test(url.pathname)) {
      return Response.json({ title: "Bad Request", status: 400 }, { status: 400 });
    }
    return vendor(request);
  };
  const ctx = callContext(
    fetch,
    clock.now,
    options.session ? { session: options.session } : {},
    options.timeoutMs,
  );
  return { ctx, clock, calls, urls, sandbox };
}

const tokenCalls = (calls: string[]) => calls.filter((call) => call === "POST /sma-auth/oauth2/token").length;

describe("SMA credentials", () => {
  it("trims the form values and accepts an e-mail address", () => {
    const parsed = smaAdapter.credentialsSchema.parse({
      clientId: "  my-client ",
      clientSecret: " secret ",
      ownerEmail: " owner@example.com ",
    });
    expect(parsed).toEqual({
      clientId: "my-client",
      clientSecret: "secret",
      ownerEmail: "owner@example.com",
    });
  });

  it("names every missing field by its label", () => {
    const result = smaAdapter.credentialsSchema.safeParse({ clientId: " ", clientSecret: "" });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "Client ID is required",
        "Client secret is required",
        "Plant owner's SMA e-mail is required",
      ]),
    );
  });

  it("refuses an owner e-mail that is not an address, and unknown fields", () => {
    const notEmail = smaAdapter.credentialsSchema.safeParse({ ...credentials, ownerEmail: "owner" });
    expect(notEmail.error?.issues[0]?.message).toMatch(/must be an e-mail address/);
    expect(smaAdapter.credentialsSchema.safeParse({ ...credentials, extra: "x" }).success).toBe(false);
  });

  it("describes a form of client ID, secret (hidden) and owner e-mail", () => {
    expect(smaAdapter.fields.map((f) => [f.name, f.field, f.type, f.required])).toEqual([
      ["clientId", "clientId", "text", true],
      ["clientSecret", "clientSecret", "password", true],
      ["ownerEmail", "ownerEmail", "email", true],
    ]);
    // One call a second per API key (the client), whichever owner's plants it reads.
    expect(
      smaAdapter.callPlan({ clientId: "client", clientSecret: "secret", ownerEmail: "o@example.com" }),
    ).toEqual({
      key: "client",
      secret: "secret",
      perEndpoint: false,
      limits: [{ intervalMs: 1000, burst: 1 }],
    });
  });
});

describe("SMA adapter against the sandbox", () => {
  it("tests a connection: token, consent requested and accepted, plants counted", async () => {
    const { ctx, calls } = sandboxHarness();
    expect(await smaAdapter.testConnection(ctx, credentials)).toEqual({ sitesFound: sandboxPlants.length });
    const consentPath = `/sma-auth/oauth2/v2/bc-authorize/${encodeURIComponent(sandboxAccount.ownerEmail)}`;
    expect(calls).toEqual([
      "POST /sma-auth/oauth2/token",
      `GET ${consentPath}`,
      "POST /sma-auth/oauth2/v2/bc-authorize",
      `GET ${consentPath}`,
      "GET /sma/v1/plants",
    ]);
  });

  it("does not ask the owner again once consent is accepted", async () => {
    const { ctx, calls } = sandboxHarness();
    await smaAdapter.testConnection(ctx, credentials);
    calls.length = 0;
    await smaAdapter.testConnection(ctx, credentials);
    expect(calls).not.toContain("POST /sma-auth/oauth2/v2/bc-authorize");
    expect(tokenCalls(calls)).toBe(0);
  });

  it("returns every plant with its newest measured power and the day's energy from its plant-level sets", async () => {
    const { ctx } = sandboxHarness();
    const snapshot = await readAllPages(smaAdapter, ctx, credentials);
    const plants = sandboxPlants;
    expect(snapshot.alarms).toBeNull();
    expect(snapshot.systems.map((s) => s.providerSystemId)).toEqual(plants.map((p) => p.id));
    for (const [index, plant] of plants.entries()) {
      // The newest measurement SMA holds: FIXED_NOW itself for a plant that uploads (a 5-minute time).
      const bucket = newestMeasurementAt(plant, FIXED_NOW);
      const system = snapshot.systems[index];
      if (!system) throw new Error(`plant ${plant.id} is missing`);
      expect(system).toMatchObject({
        name: plant.name,
        timezone: plant.timezone,
        latitude: plant.latitude,
        longitude: plant.longitude,
        capacityW: plant.capacityW,
        energyTotalWh: null,
      });
      expect(system.address).toContain(plant.city);
      expect(system.address).toContain(plant.street.split(" ")[0]);
      const powerW = livePowerW(plant, FIXED_NOW);
      if (plant.uploadLagMs === 0) {
        expect(bucket).toBe(FIXED_NOW);
        expect(powerW).toBe(plant.inverters.reduce((sum, _, i) => sum + inverterPowerW(plant, i, bucket), 0));
      }
      expect(system.powerW).toBe(powerW);
      expect(system.energyTodayWh).toBe(Math.round(dayEnergyWh(plant, FIXED_NOW)));
      expect(system.dataTime).toBe(bucket);
      expect(system.state).toBe((powerW ?? 0) > 0 ? "online" : "offline");
      // The plant's data logger and energy meter are not inverters; the inverters follow the plant.
      expect(system.inverters).toEqual(
        plant.inverters.map((simInverter) => ({
          providerInverterId: simInverter.id,
          serial: simInverter.serial,
          model: simInverter.model,
          ratedPowerW: simInverter.ratedPowerW,
          state: system.state,
          powerW: null,
          energyTodayWh: null,
          energyTotalWh: null,
          temperatureC: null,
          dataTime: bucket,
        })),
      );
    }
  });

  it("reads a plant without a plant-level set inverter by inverter, to the same day's energy", async () => {
    const plantLevel = await readAllPages(smaAdapter, sandboxHarness().ctx, credentials);
    const { ctx, calls } = sandboxHarness({ noPlantSets: true });
    const deviceLevel = await readAllPages(smaAdapter, ctx, credentials);
    const plants = sandboxPlants;
    for (const [index, plant] of plants.entries()) {
      const system = deviceLevel.systems[index];
      const dataTime = newestMeasurementAt(plant, FIXED_NOW);
      const fresh = FIXED_NOW - dataTime <= STALE_AFTER_MS;
      for (const [i, simInverter] of plant.inverters.entries()) {
        const powerW = fresh ? inverterPowerW(plant, i, dataTime) : null;
        expect(system?.inverters[i]).toEqual({
          providerInverterId: simInverter.id,
          serial: simInverter.serial,
          model: simInverter.model,
          ratedPowerW: simInverter.ratedPowerW,
          state: (powerW ?? 0) > 0 ? "online" : "offline",
          powerW,
          energyTodayWh: inverterEnergyTodayWh(plant, i, dataAsOf(plant, FIXED_NOW)),
          energyTotalWh: null,
          temperatureC: null,
          dataTime,
        });
      }
      // Each inverter's energy is rounded on its own: the sum may differ by half a Wh per inverter.
      const plantEnergyWh = plantLevel.systems[index]?.energyTodayWh ?? Number.NaN;
      expect(Math.abs((system?.energyTodayWh ?? 0) - plantEnergyWh)).toBeLessThanOrEqual(
        plant.inverters.length / 2,
      );
    }
    // Every plant was asked for its sets once, then each inverter (never the meter) for its sets, Recent and Day.
    const inverterCount = plants.reduce((n, plant) => n + plant.inverters.length, 0);
    expect(calls.filter((call) => PLANT_SET.test(call.slice(4)))).toHaveLength(plants.length);
    expect(calls.filter((call) => call.includes("/sma/v1/devices/"))).toHaveLength(3 * inverterCount);
  });

  it("reads the lists with four calls a plant and a steady cycle with two", async () => {
    const { ctx, calls, clock } = sandboxHarness();
    const listed = await readAllPages(smaAdapter, ctx, credentials);
    const plants = sandboxPlants;
    const dataCalls = () => calls.filter((call) => call.startsWith("GET /sma/v1/"));
    const liveCalls = (plant: SmaSimPlant) => [
      `GET /sma/v1/plants/${plant.id}/measurements/sets/EnergyAndPowerPv/Recent`,
      `GET /sma/v1/plants/${plant.id}/measurements/sets/EnergyAndPowerPv/Day`,
    ];
    expect(dataCalls()).toEqual([
      "GET /sma/v1/plants",
      ...plants.flatMap((plant) => [
        `GET /sma/v1/plants/${plant.id}`,
        `GET /sma/v1/plants/${plant.id}/devices/lean`,
        ...liveCalls(plant),
      ]),
    ]);
    calls.length = 0;
    clock.at += BUCKET_MS;
    const steady = await readAllPages(smaAdapter, ctx, credentials, listed.systems.map(asKnown));
    expect(dataCalls()).toEqual(plants.flatMap(liveCalls));
    expect(steady.systems.map((s) => s.dataTime)).toEqual(
      plants.map((plant) => newestMeasurementAt(plant, FIXED_NOW + BUCKET_MS)),
    );
    expect(steady.systems.map((s) => s.name)).toEqual(plants.map((plant) => plant.name));
  });

  it("keeps reading a plant without a plant-level set inverter by inverter on steady cycles", async () => {
    const { ctx, calls } = sandboxHarness({ noPlantSets: true });
    const listed = await readAllPages(smaAdapter, ctx, credentials);
    calls.length = 0;
    await readAllPages(smaAdapter, ctx, credentials, listed.systems.map(asKnown));
    expect(calls.some((call) => PLANT_SET.test(call.slice(4)))).toBe(false);
    expect(calls.some((call) => call.includes("/Recent"))).toBe(true);
  });

  it("answers a stored plant SMA no longer knows with a StaleListsError", async () => {
    const { ctx } = sandboxHarness();
    const listed = await readAllPages(smaAdapter, ctx, credentials);
    const known = listed.systems.map(asKnown);
    const gone = { ...known[0], providerSystemId: "7199999" } as KnownSystem;
    await expect(readAllPages(smaAdapter, ctx, credentials, [...known, gone])).rejects.toBeInstanceOf(
      StaleListsError,
    );
  });

  it("asks for each device's measurement sets once a day, not on every sync", async () => {
    const { ctx, calls, clock } = sandboxHarness({ noPlantSets: true });
    await readAllPages(smaAdapter, ctx, credentials);
    const setsCalls = () => calls.filter((call) => call.endsWith("/measurements/sets")).length;
    const plants = sandboxPlants;
    // One per inverter; the plants' data loggers and energy meter are never asked.
    const inverterCount = plants.reduce((n, plant) => n + plant.inverters.length, 0);
    expect(setsCalls()).toBe(inverterCount);
    clock.at += 5 * 60_000;
    await readAllPages(smaAdapter, ctx, credentials);
    expect(setsCalls()).toBe(inverterCount);
    clock.at += 24 * 3_600_000;
    await readAllPages(smaAdapter, ctx, credentials);
    expect(setsCalls()).toBe(2 * inverterCount);
  });

  it("renews the token before it expires: reused 1 min later, replaced 4 min 45 s later", async () => {
    const { ctx, calls, clock } = sandboxHarness();
    await readAllPages(smaAdapter, ctx, credentials);
    expect(tokenCalls(calls)).toBe(1);
    clock.at = FIXED_NOW + 60_000;
    await readAllPages(smaAdapter, ctx, credentials);
    expect(tokenCalls(calls)).toBe(1);
    clock.at = FIXED_NOW + 4 * 60_000 + 45_000;
    await readAllPages(smaAdapter, ctx, credentials);
    expect(tokenCalls(calls)).toBe(2);
    // The new token is good for another 5 minutes of sandbox time.
    clock.at = FIXED_NOW + 9 * 60_000;
    await readAllPages(smaAdapter, ctx, credentials);
    expect(tokenCalls(calls)).toBe(2);
  });

  it("replaces a cached token that SMA rejects, once", async () => {
    const session = testSession();
    const { ctx, calls } = sandboxHarness({ session });
    await smaAdapter.testConnection(ctx, credentials);
    session.set({ ...session.get(), accessToken: "revoked-token" });
    const snapshot = await readAllPages(smaAdapter, ctx, credentials);
    expect(snapshot.systems).toHaveLength(sandboxPlants.length);
    expect(tokenCalls(calls)).toBe(2);
  });

  it("reports a withdrawn consent readably and asks for it again on the next sync", async () => {
    const session = testSession();
    await smaAdapter.testConnection(sandboxHarness({ session }).ctx, credentials);
    // Another SMA (a fresh sandbox) knows neither the cached token nor the owner's consent.
    const { ctx, calls } = sandboxHarness({ session });
    const error = await failure(readAllPages(smaAdapter, ctx, credentials));
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(/withdrawn consent/);
    expect(tokenCalls(calls)).toBe(1);
    const snapshot = await readAllPages(smaAdapter, ctx, credentials);
    expect(snapshot.systems).toHaveLength(sandboxPlants.length);
    expect(calls).toContain("POST /sma-auth/oauth2/v2/bc-authorize");
  });

  it("runs the consent flow from a sync too, when no connection test came first", async () => {
    const { ctx } = sandboxHarness();
    const snapshot = await readAllPages(smaAdapter, ctx, credentials);
    expect(snapshot.systems).toHaveLength(sandboxPlants.length);
  });

  it.each([
    ["first", Date.UTC(2024, 9, 27, 0, 30)],
    ["second", Date.UTC(2024, 9, 27, 1, 30)],
  ])("places the %s 02:30 measurement of the end of summer time at its own instant", async (_, now) => {
    // 27 Oct 2024 repeats 02:00-03:00 in Amsterdam, Berlin and Rome, where the first sandbox plants are.
    const { ctx } = sandboxHarness({ now });
    const snapshot = await readAllPages(smaAdapter, ctx, credentials);
    const plants = sandboxPlants;
    expect(snapshot.systems.map((s) => s.dataTime)).toEqual(
      plants.map((plant) => newestMeasurementAt(plant, now)),
    );
    for (const [index, plant] of plants.entries()) {
      if (plant.uploadLagMs === 0) expect(snapshot.systems[index]?.dataTime).toBe(now);
      expect(snapshot.systems[index]?.energyTodayWh).toBe(Math.round(dayEnergyWh(plant, now)));
    }
  });

  it("returns all 500 plants of the benchmark account", async () => {
    // Just after midnight in Europe, where most plants are: short Day series keep the test quick.
    const { ctx } = sandboxHarness({ now: Date.UTC(2024, 6, 1, 23, 0) });
    const bench = { ...credentials, ...benchAccount };
    expect(await smaAdapter.testConnection(ctx, bench)).toEqual({ sitesFound: 500 });
    const snapshot = await readAllPages(smaAdapter, ctx, bench);
    const ids = simulatedPlants("sma", benchAccount.clientId, benchAccount.plants).map((p) => p.id);
    expect(snapshot.systems.map((s) => s.providerSystemId)).toEqual(ids);
    expect(new Set(ids).size).toBe(500);
    // A steady cycle: two calls a plant (its newest measurement and its day), whatever its inverters.
    const { ctx: steadyCtx, calls } = sandboxHarness({ now: Date.UTC(2024, 6, 1, 23, 5) });
    const steady = await readAllPages(smaAdapter, steadyCtx, bench, snapshot.systems.map(asKnown));
    expect(steady.systems).toHaveLength(500);
    expect(calls.filter((call) => call.startsWith("GET /sma/v1/"))).toHaveLength(1000);
  }, 60_000);
});

describe("SMA live values of the sandbox's quirk plants", () => {
  const sydney = sandboxPlants.find((plant) => plant.timezone === "Australia/Sydney");
  const silent = sandboxPlants.find((plant) => plant.uploadLagMs > 0);
  if (!sydney?.energyMeter || !silent) throw new Error("the small SMA account lacks its quirk plants");

  const systemOf = (snapshot: ProviderSnapshot, plant: SmaSimPlant): NormalisedSystem => {
    const system = snapshot.systems.find((s) => s.providerSystemId === plant.id);
    if (!system) throw new Error(`plant ${plant.name} is missing`);
    return system;
  };

  it.each([
    ["summer time (UTC+11)", Date.UTC(2025, 0, 15, 23, 47, 30), "2025-01-16", Date.UTC(2025, 0, 15, 23, 45)],
    [
      "standard time (UTC+10)",
      Date.UTC(2024, 5, 30, 23, 47, 30),
      "2024-07-01",
      Date.UTC(2024, 5, 30, 23, 45),
    ],
  ])(
    "reads the Sydney plant's power at its newest measurement in %s, on its own day (ahead of UTC's)",
    async (_, now, localDate, measuredAt) => {
      // 10:47:30 and 09:47:30 in Sydney: the 10:45 (09:45) bucket is under way, half measured.
      const { ctx, urls } = sandboxHarness({ now });
      const system = systemOf(await readAllPages(smaAdapter, ctx, credentials), sydney);
      const powerW = plantPowerW(sydney, measuredAt);
      expect(powerW).toBeGreaterThan(0);
      expect(system).toMatchObject({
        timezone: "Australia/Sydney",
        dataTime: measuredAt,
        powerW,
        state: "online",
      });
      expect(system.energyTodayWh).toBe(Math.round(dayEnergyWh(sydney, now)));
      expect(urls).toContain(
        `/sma/v1/plants/${sydney.id}/measurements/sets/EnergyAndPowerPv/Day?Date=${localDate}&ReturnEnergyValues=true`,
      );
    },
  );

  it("never counts the energy meter beside the Sydney plant's inverters as one, nor adds its power", async () => {
    const now = Date.UTC(2025, 0, 15, 23, 47, 30);
    const inverterSumW = plantPowerW(sydney, dataTimeAt(now));
    // The meter is listed, and records the plant's PV generation in a set of its own.
    const { ctx } = sandboxHarness({ now });
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: false });
    const meter = (await client.devices(sydney.id)).find((device) => device.type === "Energy Meter");
    if (!meter) throw new Error("the Sydney plant lists no energy meter");
    expect(await client.offersPv(meter.deviceId)).toBe(true);
    expect((await client.recentPv(meter.deviceId)).set.at(-1)?.pvGeneration).toBe(inverterSumW);

    // Through the plant's own sets and inverter by inverter alike.
    for (const noPlantSets of [false, true]) {
      const harness = sandboxHarness({ now, noPlantSets });
      const system = systemOf(await readAllPages(smaAdapter, harness.ctx, credentials), sydney);
      expect(system.inverters.map((inverter) => inverter.providerInverterId)).toEqual(
        sydney.inverters.map((inverter) => inverter.id),
      );
      expect(system.powerW).toBe(inverterSumW);
      expect(harness.calls.some((call) => call.includes(`/devices/${meter.deviceId}`))).toBe(false);
    }
  });

  it("shows a plant whose newest value is 3 hours old as stale: that value's time, no live power", async () => {
    // 12:00 in Madrid; the plant's data manager last uploaded at 09:00, when it produced.
    const measuredAt = FIXED_NOW - 3 * 3_600_000;
    expect(plantPowerW(silent, measuredAt)).toBeGreaterThan(0);
    for (const noPlantSets of [false, true]) {
      const { ctx } = sandboxHarness({ noPlantSets });
      const system = systemOf(await readAllPages(smaAdapter, ctx, credentials), silent);
      expect(system).toMatchObject({ dataTime: measuredAt, powerW: null, state: "offline" });
      for (const inverter of system.inverters) {
        expect(inverter).toMatchObject({ dataTime: measuredAt, powerW: null, state: "offline" });
      }
      // What it produced until then still counts for the day.
      expect(system.energyTodayWh).toBeGreaterThan(0);
      // The fleet's rule then reports it stale: its data is 3 hours old in daylight.
      expect(isStale(system, FIXED_NOW)).toBe(true);
    }
  });

  it("leaves the bucket under way out of today's history points, not out of the day's energy", async () => {
    const plant = sandboxPlants[0];
    if (!plant) throw new Error("no sandbox plant");
    // 12:02:30 in Amsterdam: the 12:00 bucket is half measured.
    const now = FIXED_NOW + 150_000;
    const { ctx } = sandboxHarness({ now });
    const request = { providerSystemId: plant.id, date: "2024-07-01", timezone: plant.timezone };
    const day = await smaAdapter.fetchHistory(ctx, credentials, request);
    const last = day?.systemPoints.at(-1);
    expect(last?.time).toBe(FIXED_NOW - BUCKET_MS);
    expect(last?.powerW).toBe(plantPowerW(plant, FIXED_NOW - BUCKET_MS));
    expect(day?.dailyEnergyWh).toBe(Math.round(dayEnergyWh(plant, now)));
  });
});

describe("SMA sandbox host behaviour", () => {
  async function token(sandbox: ReturnType<typeof createSandbox>, basic: string) {
    return sandbox.fetch(
      new Request(`${SANDBOX_ORIGIN}/sma-auth/oauth2/token`, {
        method: "POST",
        headers: {
          Authorization: `Basic ${btoa(basic)}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials",
      }),
    );
  }
  const get = (sandbox: ReturnType<typeof createSandbox>, path: string, accessToken: string) =>
    sandbox.fetch(
      new Request(`${SANDBOX_ORIGIN}${path}`, { headers: { Authorization: `Bearer ${accessToken}` } }),
    );

  it("answers a plant's day set bucket by bucket as the sum of its inverters' day sets", async () => {
    const { ctx } = sandboxHarness();
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: false });
    for (const plant of sandboxPlants) {
      const plantDay = await client.plantDayPvEnergy(plant.id, "2024-07-01");
      const inverterDays = await Promise.all(
        plant.inverters.map((inverter) => client.dayPvEnergy(inverter.id, "2024-07-01")),
      );
      expect(plantDay.set.length).toBeGreaterThan(100);
      for (const [i, bucket] of plantDay.set.entries()) {
        const deviceSum = inverterDays.reduce((sum, day) => sum + (day.set[i]?.pvGeneration ?? 0), 0);
        expect(inverterDays.every((day) => day.set[i]?.time === bucket.time)).toBe(true);
        expect(bucket.pvGeneration).toBeCloseTo(deviceSum, 6);
      }
    }
  });

  it("ends today's day set with the bucket under way, holding only the energy measured in it so far", async () => {
    // 12:02 in Amsterdam: the 12:00 bucket has 2 of its 5 minutes.
    const { ctx } = sandboxHarness({ now: FIXED_NOW + 2 * 60_000 });
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: false });
    const plant = sandboxPlants[0];
    if (!plant) throw new Error("no sandbox plant");
    const day = await client.plantDayPvEnergy(plant.id, "2024-07-01");
    expect(day.set.at(-2)?.time).toBe("2024-07-01T11:55:00");
    expect(day.set.at(-1)?.time).toBe("2024-07-01T12:00:00");
    expect(day.set.at(-1)?.pvGeneration).toBeCloseTo((plantPowerW(plant, FIXED_NOW) * 2) / 60, 6);
  });

  it("answers wrong client credentials like Keycloak", async () => {
    const { sandbox } = sandboxHarness();
    const response = await token(sandbox, `${sandboxAccount.clientId}:wrong`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: "invalid_client",
      error_description: "Invalid client credentials",
    });
  });

  it("refuses plant data without consent (403) and with an expired token (401)", async () => {
    const { sandbox, clock } = sandboxHarness();
    const issued = (await (
      await token(sandbox, `${sandboxAccount.clientId}:${sandboxAccount.clientSecret}`)
    ).json()) as {
      access_token: string;
      expires_in: number;
    };
    expect(issued.expires_in).toBe(300);
    const noConsent = await get(sandbox, "/sma/v1/plants", issued.access_token);
    expect(noConsent.status, await noConsent.text()).toBe(403);

    await sandbox.fetch(
      new Request(`${SANDBOX_ORIGIN}/sma-auth/oauth2/v2/bc-authorize`, {
        method: "POST",
        headers: { Authorization: `Bearer ${issued.access_token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ loginHint: sandboxAccount.ownerEmail }),
      }),
    );
    const state = await get(
      sandbox,
      `/sma-auth/oauth2/v2/bc-authorize/${encodeURIComponent(sandboxAccount.ownerEmail)}`,
      issued.access_token,
    );
    expect(await state.json()).toEqual(consentExample);
    clock.at = FIXED_NOW + 299_000;
    expect((await get(sandbox, "/sma/v1/plants", issued.access_token)).status).toBe(200);
    clock.at = FIXED_NOW + 300_000;
    expect((await get(sandbox, "/sma/v1/plants", issued.access_token)).status).toBe(401);
    expect((await get(sandbox, "/sma/v1/plants", "made-up")).status).toBe(401);
  });
});

describe("SMA adapter errors", () => {
  const dataHost = (url: URL) => url.pathname.startsWith("/sma/v1/");

  it("reports a wrong client secret as an auth error", async () => {
    const { ctx } = sandboxHarness();
    const error = await failure(smaAdapter.testConnection(ctx, { ...credentials, clientSecret: "wrong" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(/client ID or client secret/);
  });

  it("reports an owner e-mail SMA does not know as an auth error", async () => {
    const { ctx } = sandboxHarness();
    const error = await failure(
      smaAdapter.testConnection(ctx, { ...credentials, ownerEmail: "stranger@example.com" }),
    );
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("stranger@example.com");
  });

  it.each([
    ["500", "unavailable"],
    ["429", "rate_limited"],
    ["malformed", "malformed"],
    ["partial", "malformed"],
  ])("turns a %s answer of the data host into %s", async (fault, kind) => {
    const { ctx } = sandboxHarness({ fault, faultWhen: dataHost });
    const error = await failure(readAllPages(smaAdapter, ctx, credentials));
    expect(error.kind).toBe(kind);
    if (fault === "429") expect(error.retryAfterMs).toBe(60_000);
    if (fault === "partial") expect(error.message).toMatch(/plant list.*plants\.0\.name/);
  });

  it.each([
    ["500", "unavailable"],
    ["429", "rate_limited"],
    ["partial", "malformed"],
  ])("turns a %s answer of the token endpoint into %s", async (fault, kind) => {
    const { ctx } = sandboxHarness({ fault });
    const error = await failure(smaAdapter.testConnection(ctx, credentials));
    expect(error.kind).toBe(kind);
  });

  it("gives up on a host that does not answer in time", async () => {
    const { ctx } = sandboxHarness({ fault: "timeout", faultWhen: dataHost, timeoutMs: 200 });
    const error = await failure(readAllPages(smaAdapter, ctx, credentials));
    expect(error.kind).toBe("timeout");
  });
});

/** A fake SMA serving the research examples, keyed by path; records every request. */
function exampleVendor(overrides: Record<string, unknown> = {}) {
  const recent = {
    plant: dayExample.plant,
    device: dayExample.device,
    setType: "EnergyAndPowerPv",
    resolution: "FiveMinutes",
    set: [{ time: "2024-07-01T12:30:00", pvGeneration: 5160.0 }],
  };
  const routes: Record<string, unknown> = {
    "POST /oauth2/token": tokenExample,
    "GET /oauth2/v2/bc-authorize/owner%40example.com": consentExample,
    "GET /v1/plants": plantsExample,
    "GET /v1/plants/7190000": plantExample,
    "GET /v1/plants/7190000/devices/lean": devicesExample,
    "GET /v1/devices/16/measurements/sets": setsExample,
    "GET /v1/devices/16/measurements/sets/EnergyAndPowerPv/Recent": recent,
    "GET /v1/devices/16/measurements/sets/EnergyAndPowerPv/Day": dayExample,
    ...overrides,
  };
  const requests: Request[] = [];
  const route = (request: Request) =>
    `${request.method} ${new URL(request.url).pathname.replace(/^\/(sma-auth|sma-consent|sma)/, "")}`;
  const fetch = answersFetch(
    (request) => routes[route(request)],
    () => new Response("", { status: 404 }),
    requests,
  );
  return { fetch, requests };
}

const exampleContext = (fetch: Fetch, now: number) => callContext(fetch, () => now);

const exampleCredentials: SmaCredentials = {
  clientId: "example-client",
  clientSecret: "example secret",
  ownerEmail: "owner@example.com",
};
/** 12:32 in Amsterdam on the examples' day: the newest 5-minute value is 12:30 local, 10:30 UTC. */
const EXAMPLE_NOW = Date.UTC(2024, 6, 1, 10, 32);

describe("SMA adapter against the research examples", () => {
  it("normalises units, ids, states and plant-local times exactly", async () => {
    const vendor = exampleVendor();
    const snapshot = await readAllPages(
      smaAdapter,
      exampleContext(vendor.fetch, EXAMPLE_NOW),
      exampleCredentials,
    );
    const dataTime = Date.UTC(2024, 6, 1, 10, 30);
    expect(snapshot).toEqual({
      alarms: null,
      systems: [
        {
          providerSystemId: "7190000",
          name: "Site 1",
          address: "Keizersgracht 12, 1015 CS Amsterdam, NL",
          latitude: 52.378,
          longitude: 4.889,
          timezone: "Europe/Amsterdam",
          capacityW: 6400,
          state: "online",
          powerW: 5160,
          energyTodayWh: 435,
          energyTotalWh: null,
          dataTime,
          inverters: [
            {
              providerInverterId: "16",
              serial: "3421111",
              model: "STP 6000TL-20",
              ratedPowerW: 6000,
              state: "online",
              powerW: 5160,
              energyTodayWh: 435,
              energyTotalWh: null,
              temperatureC: null,
              dataTime,
            },
          ],
        },
      ],
    });
  });

  it("speaks SMA's protocol: Basic client auth, form grant, bearer calls, plant-local Date", async () => {
    const vendor = exampleVendor();
    await readAllPages(smaAdapter, exampleContext(vendor.fetch, EXAMPLE_NOW), exampleCredentials);
    const [tokenRequest, ...rest] = vendor.requests;
    expect(tokenRequest?.headers.get("Authorization")).toBe(`Basic ${btoa("example-client:example+secret")}`);
    expect(tokenRequest?.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
    const form = await tokenRequest?.formData();
    expect([...(form?.entries() ?? [])]).toEqual([["grant_type", "client_credentials"]]);
    for (const request of rest)
      expect(request.headers.get("Authorization")).toBe(`Bearer ${tokenExample.access_token}`);
    const day = rest.find((r) => r.url.includes("/Day"));
    expect(new URL(day?.url ?? SANDBOX_ORIGIN).search).toBe("?Date=2024-07-01&ReturnEnergyValues=true");
    // Consent was already accepted: the owner is not e-mailed again.
    expect(rest.some((r) => r.method === "POST")).toBe(false);
  });

  it("reads a plant's own sets: power from its newest measurement, the day's energy, inverters following", async () => {
    // The day set ends with the bucket under way (12:35, 2 minutes measured): no power reading.
    const plantDay = {
      ...dayExample,
      device: undefined,
      set: [...dayExample.set, { time: "2024-07-01T12:35:00", pvGeneration: 172.0 }],
    };
    const plantRecent = {
      plant: dayExample.plant,
      setType: "EnergyAndPowerPv",
      resolution: "FiveMinutes",
      set: [{ time: "2024-07-01T12:35:00", pvGeneration: 5160.0 }],
    };
    const vendor = exampleVendor({
      "GET /v1/plants/7190000/measurements/sets/EnergyAndPowerPv/Recent": plantRecent,
      "GET /v1/plants/7190000/measurements/sets/EnergyAndPowerPv/Day": plantDay,
    });
    const now = Date.UTC(2024, 6, 1, 10, 37);
    const snapshot = await readAllPages(smaAdapter, exampleContext(vendor.fetch, now), exampleCredentials);
    const dataTime = Date.UTC(2024, 6, 1, 10, 35);
    expect(snapshot.systems[0]).toMatchObject({
      state: "online",
      powerW: 5160,
      energyTodayWh: 435 + 172,
      dataTime,
      inverters: [{ providerInverterId: "16", state: "online", powerW: null, energyTodayWh: null, dataTime }],
    });
    expect(vendor.requests.some((r) => r.url.includes("/devices/16/measurements"))).toBe(false);
  });

  it("caps an absurd 5-minute energy value at what the generator can produce", async () => {
    const spiky = {
      ...dayExample,
      set: [...dayExample.set, { time: "2024-07-01T12:25:00", pvGeneration: 1024843.0 }],
    };
    const vendor = exampleVendor({ "GET /v1/devices/16/measurements/sets/EnergyAndPowerPv/Day": spiky });
    const snapshot = await readAllPages(
      smaAdapter,
      exampleContext(vendor.fetch, EXAMPLE_NOW),
      exampleCredentials,
    );
    // 6000 W generator × 5 min = 500 Wh at most.
    expect(snapshot.systems[0]?.energyTodayWh).toBe(435 + 500);
  });

  it("reads no PV values from a device without the EnergyAndPowerPv set", async () => {
    const vendor = exampleVendor({
      "GET /v1/devices/16/measurements/sets": { ...setsExample, sets: ["PowerAc"] },
    });
    const snapshot = await readAllPages(
      smaAdapter,
      exampleContext(vendor.fetch, EXAMPLE_NOW),
      exampleCredentials,
    );
    expect(snapshot.systems[0]?.inverters[0]).toMatchObject({
      powerW: null,
      energyTodayWh: null,
      state: "offline",
    });
    expect(
      vendor.requests.some((r) => r.url.includes("/devices/16/measurements/sets/EnergyAndPowerPv")),
    ).toBe(false);
  });

  it("waits for a pending consent without e-mailing the owner again", async () => {
    const vendor = exampleVendor({ "GET /oauth2/v2/bc-authorize/owner%40example.com": { state: "Pending" } });
    const error = await failure(
      smaAdapter.testConnection(exampleContext(vendor.fetch, EXAMPLE_NOW), exampleCredentials),
    );
    expect(error.kind).toBe("invalid_request");
    expect(error.message).toMatch(/plant owner to approve/);
    expect(error.message).toContain("owner@example.com");
    expect(vendor.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/sma-auth/oauth2/token",
      "/sma-auth/oauth2/v2/bc-authorize/owner%40example.com",
    ]);
  });

  it("asks for consent at the consent host (SMA_CONSENT_URL) and for tokens at the auth host", async () => {
    const vendor = exampleVendor({ "GET /oauth2/v2/bc-authorize/owner%40example.com": { state: "Pending" } });
    const ctx = exampleContext(vendor.fetch, EXAMPLE_NOW);
    await failure(
      smaAdapter.testConnection(
        { ...ctx, urls: { ...ctx.urls, smaConsent: `${SANDBOX_ORIGIN}/sma-consent` } },
        exampleCredentials,
      ),
    );
    expect(vendor.requests.map((r) => new URL(r.url).pathname)).toEqual([
      "/sma-auth/oauth2/token",
      "/sma-consent/oauth2/v2/bc-authorize/owner%40example.com",
    ]);
  });

  it("asks a declined owner again only when a person tests the connection", async () => {
    const declined = { "GET /oauth2/v2/bc-authorize/owner%40example.com": { state: "Rejected" } };
    const sync = exampleVendor(declined);
    const syncError = await failure(
      readAllPages(smaAdapter, exampleContext(sync.fetch, EXAMPLE_NOW), exampleCredentials),
    );
    expect(syncError.kind).toBe("auth");
    expect(sync.requests.some((r) => r.method === "POST" && r.url.endsWith("/bc-authorize"))).toBe(false);

    const test = exampleVendor({ ...declined, "POST /oauth2/v2/bc-authorize": { state: "Pending" } });
    await failure(smaAdapter.testConnection(exampleContext(test.fetch, EXAMPLE_NOW), exampleCredentials));
    const consentRequest = test.requests.find((r) => r.method === "POST" && r.url.endsWith("/bc-authorize"));
    expect(await consentRequest?.json()).toEqual({ loginHint: "owner@example.com" });
  });
});

describe("SMA plant-local times", () => {
  const zone = "Europe/Amsterdam";

  it("converts across the start of summer time", () => {
    expect(
      plantLocalTimesToUtcMs(["2024-03-31T01:55:00", "2024-03-31T03:00:00"], zone, Date.UTC(2024, 2, 31, 12)),
    ).toEqual([Date.UTC(2024, 2, 31, 0, 55), Date.UTC(2024, 2, 31, 1, 0)]);
  });

  it("places both readings of the repeated hour at the end of summer time", () => {
    const times = ["2024-10-27T02:55:00", "2024-10-27T02:00:00", "2024-10-27T02:05:00"];
    expect(plantLocalTimesToUtcMs(times, zone, Date.UTC(2024, 9, 27, 1, 7))).toEqual([
      Date.UTC(2024, 9, 27, 0, 55),
      Date.UTC(2024, 9, 27, 1, 0),
      Date.UTC(2024, 9, 27, 1, 5),
    ]);
    // A single reading is placed by the clock: the first 02:30 before the change, the second after.
    expect(plantLocalTimesToUtcMs(["2024-10-27T02:30:00"], zone, Date.UTC(2024, 9, 27, 0, 31))).toEqual([
      Date.UTC(2024, 9, 27, 0, 30),
    ]);
    expect(plantLocalTimesToUtcMs(["2024-10-27T02:30:00"], zone, Date.UTC(2024, 9, 27, 1, 31))).toEqual([
      Date.UTC(2024, 9, 27, 1, 30),
    ]);
  });

  it("takes a time that carries its own offset as it is", () => {
    expect(plantLocalTimesToUtcMs(["2024-07-01T12:30:00Z"], zone, Date.UTC(2024, 6, 1, 13))).toEqual([
      Date.UTC(2024, 6, 1, 12, 30),
    ]);
  });
});
