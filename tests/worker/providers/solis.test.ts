import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import {
  dataTimeAt,
  faultsOn,
  inverterEnergyTodayWh,
  inverterEnergyTotalWh,
  inverterPowerW,
  inverterState,
  inverterTemperatureC,
  plantState,
  simulatedPlants,
} from "../../../sandbox/simulation";
import { solisSandbox } from "../../../sandbox/solis";
import { VirtualClock } from "../../../sandbox/virtual-clock";
import { localBudget } from "../../../worker/providers/budget";
import { ProviderHttp } from "../../../worker/providers/http";
import { solisAdapter } from "../../../worker/providers/solis";
import { SolisClient } from "../../../worker/providers/solis/client";
import {
  capacityW,
  energyWh,
  normaliseInverter,
  normaliseSystem,
  powerW,
} from "../../../worker/providers/solis/normalise";
import { inverterSchema, stationSchema } from "../../../worker/providers/solis/schemas";
import { solisSignedHeaders } from "../../../worker/providers/solis/signature";
import { sandboxUrls } from "../../../worker/providers/urls";
import alarmListExample from "../../fixtures/provider-examples/soliscloud/alarmList.json";
import abnormalDataExample from "../../fixtures/provider-examples/soliscloud/error-abnormal-data.json";
import dailyLimitExample from "../../fixtures/provider-examples/soliscloud/error-daily-limit.json";
import inverterDayExample from "../../fixtures/provider-examples/soliscloud/inverterDay.json";
import inverterDetailExample from "../../fixtures/provider-examples/soliscloud/inverterDetail.json";
import inverterListExample from "../../fixtures/provider-examples/soliscloud/inverterList.json";
import stationDetailExample from "../../fixtures/provider-examples/soliscloud/stationDetail.json";
import userStationListExample from "../../fixtures/provider-examples/soliscloud/userStationList.json";
import { readAllPages } from "./all-pages";
import { answersFetch, type Fetch, failure, fixedTimeHarness, sandboxFetch } from "./harness";

// 11:22:30 in Amsterdam and Munich on a day their first inverter has its 11:00-11:45 fault.
const FIXED_NOW = Date.UTC(2024, 5, 20, 9, 22, 30);
const DATA_TIME = dataTimeAt(FIXED_NOW);
const [account, benchAccount] = sandboxAccounts.solis;
const credentials = { keyId: account.keyId, keySecret: account.keySecret };
const benchCredentials = { keyId: benchAccount.keyId, keySecret: benchAccount.keySecret };

const { context, sandboxContext } = fixedTimeHarness(FIXED_NOW);

/** Serves fixed vendor answers by endpoint name, as SolisCloud would for any signed request. */
const exampleFetch = (answers: Record<string, unknown>): Fetch =>
  answersFetch(
    (request) => answers[new URL(request.url).pathname.split("/").pop() ?? ""],
    () => new Response("not found", { status: 404 }),
  );

const plants = simulatedPlants("solis", account.keyId, account.plants);
const stateNames = { online: "online", offline: "offline", fault: "alarm" } as const;

/**
 * The benchmark account budgeted as in production, on a virtual clock that keeps the test fast:
 * the emulator's limit clock is the same one, so the spacing is real to it.
 */
function benchContext() {
  const clock = new VirtualClock(Date.now());
  const sandbox = new Hono().route("/solis", solisSandbox({ now: () => FIXED_NOW, clock: clock.now }));
  const http = new ProviderHttp({
    fetch: clock.track(sandboxFetch(sandbox)),
    budget: localBudget(solisAdapter.callPlan(benchCredentials)),
    now: clock.now,
    sleep: clock.sleep,
  });
  return { clock, http, ctx: context(http) };
}

describe("solis adapter against the sandbox", () => {
  it("lists every station with its inverters and the simulation's values at the vendor's data time", async () => {
    const ctx = sandboxContext();
    const snapshot = await readAllPages(solisAdapter, ctx, credentials);

    // A page of each list, and the first unit's one-record alarm read that names the list's length.
    expect(ctx.http.calls).toBe(4);
    expect(snapshot.systems.map((system) => system.providerSystemId)).toEqual(
      plants.map((plant) => plant.id),
    );
    for (const [p, plant] of plants.entries()) {
      const system = snapshot.systems[p];
      expect(system).toMatchObject({
        providerSystemId: plant.id,
        name: plant.name,
        address: `${plant.street}, ${plant.city}, ${plant.country}`,
        latitude: plant.latitude,
        longitude: plant.longitude,
        timezone: null,
        capacityW: plant.capacityW,
        state: stateNames[plantState(plant, DATA_TIME)],
        dataTime: DATA_TIME,
      });
      expect(system?.providerSystemId).toMatch(/^\d{19}$/);
      const inverterPower = plant.inverters.map((_, i) => inverterPowerW(plant, i, DATA_TIME));
      expect(system?.powerW).toBe(inverterPower.reduce((sum, w) => sum + w, 0));
      const todayWh = plant.inverters.reduce(
        (sum, _, i) => sum + inverterEnergyTodayWh(plant, i, DATA_TIME),
        0,
      );
      const totalWh = plant.inverters.reduce(
        (sum, _, i) => sum + inverterEnergyTotalWh(plant, i, DATA_TIME),
        0,
      );
      // MWh with three decimals is exact to 0.5 kWh.
      expect(Math.abs((system?.energyTodayWh ?? 0) - todayWh)).toBeLessThanOrEqual(500);
      expect(Math.abs((system?.energyTotalWh ?? 0) - totalWh)).toBeLessThanOrEqual(500);

      expect(system?.inverters).toHaveLength(plant.inverters.length);
      for (const [i, simInverter] of plant.inverters.entries()) {
        const inverter = system?.inverters[i];
        expect(inverter).toMatchObject({
          providerInverterId: simInverter.id,
          serial: simInverter.serial,
          model: simInverter.model,
          ratedPowerW: simInverter.ratedPowerW,
          state: stateNames[inverterState(plant, i, DATA_TIME)],
          powerW: inverterPowerW(plant, i, DATA_TIME),
          temperatureC: inverterTemperatureC(plant, i, DATA_TIME),
          dataTime: DATA_TIME,
        });
        expect(
          Math.abs((inverter?.energyTodayWh ?? 0) - inverterEnergyTodayWh(plant, i, DATA_TIME)),
        ).toBeLessThanOrEqual(500);
        expect(
          Math.abs((inverter?.energyTotalWh ?? 0) - inverterEnergyTotalWh(plant, i, DATA_TIME)),
        ).toBeLessThanOrEqual(500);
      }
    }
    // A fault is under way at the fixed instant, so the alarm state is exercised too.
    expect(snapshot.systems.filter((system) => system.state === "alarm")).toHaveLength(2);
  });

  it("reports the simulation's faults as alarms: open while they last, ended once restored", async () => {
    const snapshot = await readAllPages(solisAdapter, sandboxContext(), credentials);
    const expected = plants.flatMap((plant) =>
      ["2024-06-19", "2024-06-20"].flatMap((day) =>
        faultsOn(plant, day).map((fault) => ({
          providerAlarmId: `${plant.id}:${plant.inverters[fault.inverterIndex]?.serial}:${fault.code}:${fault.startsAt}`,
          providerSystemId: plant.id,
          deviceSerial: plant.inverters[fault.inverterIndex]?.serial ?? null,
          code: fault.code,
          title: fault.message,
          severity: "critical",
          startedAt: fault.startsAt,
          endedAt: fault.endsAt <= FIXED_NOW ? fault.endsAt : null,
        })),
      ),
    );
    expect(expected).toHaveLength(4);
    const alarms = [...(snapshot.alarms ?? [])].sort((a, b) =>
      a.providerAlarmId.localeCompare(b.providerAlarmId),
    );
    expect(alarms).toMatchObject(expected.sort((a, b) => a.providerAlarmId.localeCompare(b.providerAlarmId)));
    expect(alarms.filter((alarm) => alarm.endedAt === null)).toHaveLength(2);
  });

  it("keeps alarm ids stable from one sync to the next", async () => {
    const first = await readAllPages(solisAdapter, sandboxContext(), credentials);
    const later = FIXED_NOW + 30 * 60_000;
    const sandbox = createSandbox({ now: () => later });
    const second = await readAllPages(
      solisAdapter,
      context(sandboxFetch(sandbox), { now: () => later }),
      credentials,
    );
    const ids = (snapshot: typeof first) => snapshot.alarms?.map((alarm) => alarm.providerAlarmId).sort();
    expect(ids(second)).toEqual(ids(first));
    // Half an hour on, today's faults are over too.
    expect(second.alarms?.every((alarm) => alarm.endedAt !== null)).toBe(true);
  });

  it("tests a connection with one call and counts the stations", async () => {
    const ctx = sandboxContext();
    expect(await solisAdapter.testConnection(ctx, credentials)).toEqual({ sitesFound: 3 });
    expect(ctx.http.calls).toBe(1);
  });

  it("pages through all 500 plants of the benchmark account within 2 calls per second", async () => {
    // The three lists are read side by side, as in production.
    const { clock, http, ctx } = benchContext();
    const startedAt = clock.now();
    const snapshot = await readAllPages(solisAdapter, ctx, benchCredentials);

    const benchPlants = simulatedPlants("solis", benchAccount.keyId, benchAccount.plants);
    expect(snapshot.systems).toHaveLength(500);
    expect(new Set(snapshot.systems.map((system) => system.providerSystemId)).size).toBe(500);
    expect(snapshot.systems.map((system) => system.providerSystemId)).toEqual(
      benchPlants.map((plant) => plant.id),
    );
    const inverterCount = benchPlants.reduce((sum, plant) => sum + plant.inverters.length, 0);
    expect(snapshot.systems.reduce((sum, system) => sum + system.inverters.length, 0)).toBe(inverterCount);
    const alarmPages = Math.max(1, Math.ceil((snapshot.alarms?.length ?? 0) / 100));
    // Plus the first unit's one-record alarm read that names the alarm list's length.
    expect(http.calls).toBe(5 + Math.ceil(inverterCount / 100) + alarmPages + 1);
    expect(http.retries).toBe(0);
    // The longest list (inverters) paces the sync, its pages 550 ms apart with the stations
    // alongside; the alarm pages follow, the first right after the last inverter page (that
    // endpoint has been idle since the first unit) and the rest 550 ms apart.
    expect(clock.now() - startedAt).toBe((Math.ceil(inverterCount / 100) - 1 + alarmPages - 1) * 550);
    // The simulation integrates each inverter's day in 5-minute steps: 1,250 inverters take a while.
  }, 60_000);
});

describe("solis adapter against the research example responses", () => {
  const inverterDetailList = {
    ...inverterDetailExample,
    data: { records: [inverterDetailExample.data], total: 1, size: 100, current: 1, pages: 1 },
  };
  const examples = {
    userStationList: userStationListExample,
    inverterDetailList,
    alarmList: alarmListExample,
  };

  it("converts units, keeps ids as strings and uses the vendor's data times", async () => {
    const snapshot = await readAllPages(solisAdapter, context(exampleFetch(examples)), credentials);
    expect(snapshot.systems).toEqual([
      {
        providerSystemId: "1298491919448631809",
        name: "Keizersgracht 12",
        address: "Keizersgracht 12, Amsterdam",
        latitude: null,
        longitude: null,
        timezone: null,
        capacityW: 6400,
        state: "online",
        powerW: 3215,
        energyTodayWh: 18_600,
        energyTotalWh: 21_407_000,
        dataTime: 1_719_829_230_000,
        inverters: [
          {
            providerInverterId: "1308675217944611083",
            serial: "120B40198150131",
            model: "b4",
            ratedPowerW: 6000,
            state: "online",
            powerW: 3215,
            energyTodayWh: 18_600,
            energyTotalWh: 21_407_000,
            temperatureC: 41.2,
            dataTime: 1_719_829_230_000,
          },
        ],
      },
    ]);
  });

  it("stores a station once both lists have ended, even with fewer inverters than its inverterCount", async () => {
    const [station] = userStationListExample.data.page.records;
    const stations = {
      ...userStationListExample,
      data: { page: { records: [{ ...station, inverterCount: 3 }], total: 1, pages: 1 } },
    };
    const snapshot = await readAllPages(
      solisAdapter,
      context(exampleFetch({ ...examples, userStationList: stations })),
      credentials,
    );
    expect(snapshot.systems.map((system) => system.inverters.length)).toEqual([1]);
    expect(snapshot.alarms).toHaveLength(1);
  });

  it("reads alarms under data.records with a stable id, level and open state", async () => {
    const snapshot = await readAllPages(solisAdapter, context(exampleFetch(examples)), credentials);
    expect(snapshot.alarms).toEqual([
      {
        providerAlarmId: "1298491919448631809:00FFC0011557001:2129:1687918458326",
        providerSystemId: "1298491919448631809",
        deviceSerial: "00FFC0011557001",
        code: "2129",
        title: "Solis alarm 2129",
        message: "Solis alarm 2129",
        severity: "info",
        startedAt: 1_687_918_458_326,
        endedAt: null,
      },
    ]);
  });

  it("ends processed and restored alarms at their end time, or begin plus duration", async () => {
    const [record] = alarmListExample.data.records;
    const restored = { ...record, state: "2", alarmLevel: "3" };
    const processed = {
      ...record,
      state: "1",
      alarmLevel: "2",
      alarmEndTime: null,
      alarmBeginTime: 1_687_900_000_000,
    };
    const answer = {
      ...alarmListExample,
      data: { page: { records: [restored, processed], total: 2, pages: 1 } },
    };
    const snapshot = await readAllPages(
      solisAdapter,
      context(exampleFetch({ ...examples, alarmList: answer })),
      credentials,
    );
    expect(snapshot.alarms?.map(({ severity, endedAt }) => ({ severity, endedAt }))).toEqual([
      { severity: "critical", endedAt: 1_687_918_484_635 },
      { severity: "warning", endedAt: 1_687_900_026_308 },
    ]);
  });

  it("normalises stationDetail, inverterList and inverterDay rows by their unit strings", () => {
    const station = normaliseSystem(stationSchema.parse(stationDetailExample.data), []);
    expect(station).toMatchObject({
      capacityW: 12_000,
      powerW: 5772,
      energyTodayWh: 31_300,
      energyTotalWh: 36_393_000,
      dataTime: 1_687_844_402_978,
    });
    const [listed] = inverterListExample.data.page.records;
    expect(normaliseInverter(inverterSchema.parse(listed))).toMatchObject({
      providerInverterId: "1308675217944611083",
      model: "b4",
      ratedPowerW: 8000,
      powerW: 5025,
      energyTodayWh: 27_800,
      energyTotalWh: 36_397_000,
      dataTime: 1_687_846_773_000,
    });
    const [row] = inverterDayExample.data;
    expect(powerW(row?.pac ?? null, row?.pacStr ?? null, Number(row?.pacPec))).toBe(74);
  });

  it("knows every unit the vendor uses and refuses to guess an unknown one", () => {
    expect(powerW(950, "W")).toBe(950);
    expect(powerW(1.25, "MW")).toBe(1_250_000);
    expect(powerW(2, null)).toBe(2000);
    expect(energyWh(1.5, "GWh")).toBe(1_500_000_000);
    expect(energyWh(640, "Wh")).toBe(640);
    expect(capacityW(1.2, "MWp")).toBe(1_200_000);
    expect(energyWh(3, "BTU")).toBeNull();
  });
});

describe("solis adapter failures", () => {
  it("refuses a wrong secret as auth, with the vendor's 403 R0000", async () => {
    const ctx = sandboxContext();
    const error = await failure(solisAdapter.testConnection(ctx, { ...credentials, keySecret: "wrong" }));
    expect(error.kind).toBe("auth");
  });

  it("refuses an unknown key id as auth", async () => {
    const error = await failure(
      readAllPages(solisAdapter, sandboxContext(), { ...credentials, keyId: "1300386381676649999" }),
    );
    expect(error.kind).toBe("auth");
  });

  it("answers the emulator's R0000 envelope for a body that does not match its Content-MD5", async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    const headers = await solisSignedHeaders({
      ...credentials,
      body: '{"pageNo":1,"pageSize":10}',
      date: new Date(FIXED_NOW).toUTCString(),
      path: "/v1/api/userStationList",
    });
    const response = await sandbox.fetch(
      new Request("http://sandbox.test/solis/v1/api/userStationList", {
        method: "POST",
        headers,
        body: '{"pageNo":2,"pageSize":10}',
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ success: false, code: "R0000", msg: "No authority", data: null });
  });

  it("explains a clock more than 15 minutes off (HTTP 408)", async () => {
    const ctx = context(sandboxFetch(createSandbox({ now: () => FIXED_NOW })), {
      now: () => FIXED_NOW + 20 * 60_000,
    });
    const error = await failure(solisAdapter.testConnection(ctx, credentials));
    expect(error.kind).toBe("unavailable");
    expect(error.message).toMatch(/408.*15 minutes/);
  });

  it("reads a unit's station page without waiting out a per-second refusal of the inverter page beside it", async () => {
    const sandbox = sandboxFetch(createSandbox({ now: () => FIXED_NOW }));
    const inverterCalls: string[] = [];
    // Every inverter-list call is refused for SolisCloud's per-second limit.
    const refusingInverters: Fetch = async (request) => {
      if (!new URL(request.url).pathname.endsWith("/inverterDetailList")) return sandbox(request);
      inverterCalls.push(request.url);
      return Response.json({
        success: false,
        code: "R0000",
        msg: "No authority too many request 2 times in 1SECONDS",
        data: null,
      });
    };
    const cursor = (stationPages: number) =>
      JSON.stringify({
        stationPage: 1,
        inverterPage: 1,
        alarmPage: 1,
        stationPages,
        inverterPages: 13,
        alarmPages: 1,
        alarmFrom: "2024-06-18",
        alarmTo: "2024-06-21",
        waiting: [],
        early: {},
      });
    // A unit that reads a station page (more station pages left than inverter pages): the
    // inverter call is made once and its page read in a later unit.
    const unit = await solisAdapter.syncPage(context(refusingInverters), benchCredentials, cursor(99), null);
    expect(inverterCalls).toHaveLength(1);
    expect(unit.pagesRead).toBe(1);
    expect(JSON.parse(unit.nextCursor ?? "{}")).toMatchObject({ stationPage: 2, inverterPage: 1 });
    // A unit that reads the inverter list alone retries the refusal as usual, and fails on it.
    inverterCalls.length = 0;
    const error = await failure(
      solisAdapter.syncPage(context(refusingInverters), benchCredentials, cursor(1), null),
    );
    expect(error.kind).toBe("rate_limited");
    expect(inverterCalls.length).toBeGreaterThan(1);
  });

  it("treats a 5xx as unavailable", async () => {
    expect((await failure(readAllPages(solisAdapter, sandboxContext("500"), credentials))).kind).toBe(
      "unavailable",
    );
  });

  it("treats the vendor's daily limit (R0000 too many request) as rate_limited until the day has passed", async () => {
    const error = await failure(readAllPages(solisAdapter, sandboxContext("429"), credentials));
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(86_400_000);
    const example = await failure(
      solisAdapter.testConnection(context(exampleFetch({ userStationList: dailyLimitExample })), credentials),
    );
    expect(example.kind).toBe("rate_limited");
  });

  it("is held to 2 calls per second per endpoint by the emulator", async () => {
    const sandbox = new Hono().route("/solis", solisSandbox({ now: () => FIXED_NOW, clock: () => 0 }));
    const ctx = context(sandboxFetch(sandbox));
    await solisAdapter.testConnection(ctx, credentials);
    await solisAdapter.testConnection(ctx, credentials);
    const error = await failure(solisAdapter.testConnection(ctx, credentials));
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(1000);
    // The limit is per endpoint: another list still answers.
    const page = await new SolisClient(ctx, credentials).page(
      "inverterDetailList",
      { pageNo: 1, pageSize: 1 },
      inverterSchema,
    );
    expect(page.total).toBe(8);
  });

  it("treats an answer that is not JSON as malformed", async () => {
    expect((await failure(readAllPages(solisAdapter, sandboxContext("malformed"), credentials))).kind).toBe(
      "malformed",
    );
  });

  it("refuses a partial list that is short of its own total as malformed", async () => {
    const error = await failure(readAllPages(solisAdapter, sandboxContext("partial"), credentials));
    expect(error.kind).toBe("malformed");
    // The inverter list is read first (its stations come a page behind it).
    expect(error.message).toMatch(/inverterDetailList page 1 answered 4 of the 8 records/);
  });

  it("gives up on a call after the timeout", async () => {
    const error = await failure(solisAdapter.testConnection(sandboxContext("timeout", 200), credentials));
    expect(error.kind).toBe("timeout");
  });

  it("names the record and field when a record has the wrong shape", async () => {
    const emptyList = {
      success: true,
      code: "0",
      msg: "success",
      data: { page: { records: [], total: 0, pages: 0 } },
    };
    const [station] = userStationListExample.data.page.records;
    const broken = {
      ...userStationListExample,
      data: { page: { records: [station, { ...station, id: null }], total: 2, pages: 1 } },
    };
    const error = await failure(
      readAllPages(
        solisAdapter,
        context(
          exampleFetch({ userStationList: broken, inverterDetailList: emptyList, alarmList: emptyList }),
        ),
        credentials,
      ),
    );
    expect(error.kind).toBe("malformed");
    expect(error.message).toMatch(/userStationList record 2 .*id/);
  });

  it("maps the vendor's account and parameter codes", async () => {
    const abnormal = await failure(
      solisAdapter.testConnection(
        context(exampleFetch({ userStationList: abnormalDataExample })),
        credentials,
      ),
    );
    expect(abnormal.kind).toBe("auth");
    const wrongAccount = { success: true, code: "I0012", msg: "Incorrect account or password", data: null };
    expect(
      (
        await failure(
          solisAdapter.testConnection(context(exampleFetch({ userStationList: wrongAccount })), credentials),
        )
      ).kind,
    ).toBe("auth");
    const emptyParameters = { success: true, code: "I0000", msg: "Necessary parameters empty", data: null };
    expect(
      (
        await failure(
          solisAdapter.testConnection(
            context(exampleFetch({ userStationList: emptyParameters })),
            credentials,
          ),
        )
      ).kind,
    ).toBe("invalid_request");
  });
});

describe("solis credentials", () => {
  it("trims the form values and leaves the API URL to the configured default when empty", () => {
    const parsed = solisAdapter.credentialsSchema.parse({
      keyId: " 1300386381676644416 ",
      keySecret: "s3cret ",
      apiUrl: "",
    });
    expect(parsed).toEqual({ keyId: "1300386381676644416", keySecret: "s3cret" });
  });

  it("names the missing field", () => {
    const result = solisAdapter.credentialsSchema.safeParse({ keyId: "", keySecret: "x" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain("API Key ID is required");
    expect(solisAdapter.credentialsSchema.safeParse({ keyId: "1", keySecret: "x", extra: "y" }).success).toBe(
      false,
    );
    expect(
      solisAdapter.credentialsSchema.safeParse({ keyId: "1", keySecret: "x", apiUrl: "soliscloud" }).success,
    ).toBe(false);
  });

  it("offers KeyId, a password-type KeySecret and an optional API URL", () => {
    expect(solisAdapter.fields.map(({ name, type, required }) => ({ name, type, required }))).toEqual([
      { name: "keyId", type: "text", required: true },
      { name: "keySecret", type: "password", required: true },
      { name: "apiUrl", type: "url", required: false },
    ]);
  });

  it("calls the credential's own API URL and signs only the vendor's path", async () => {
    const seen: string[] = [];
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    // The account's own SolisCloud host; the sandbox answers for it (the URL's path is kept).
    const vendorHost: Fetch = (request) => {
      seen.push(request.url);
      const url = new URL(request.url);
      return sandboxFetch(sandbox)(new Request(`http://sandbox.test/solis${url.pathname}`, request));
    };
    const ctx = context(vendorHost, {
      urls: { ...sandboxUrls("http://sandbox.test"), solis: "https://unused.invalid" },
    });
    const parsed = solisAdapter.credentialsSchema.parse({
      ...credentials,
      apiUrl: "https://v3.soliscloud.com:13333/",
    });
    expect(await solisAdapter.testConnection(ctx, parsed)).toEqual({ sitesFound: 3 });
    expect(seen).toEqual(["https://v3.soliscloud.com:13333/v1/api/userStationList"]);
  });
});
