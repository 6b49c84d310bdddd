import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import {
  activeFault,
  dataTimeAt,
  inverterEnergyTodayWh,
  inverterEnergyTotalWh,
  inverterPowerW,
  inverterState,
  inverterTemperatureC,
} from "../../../sandbox/simulation";
import { solaxCommercialPlants, solaxPlants } from "../../../sandbox/solax";
import { StaleListsError } from "../../../worker/providers/errors";
import { solaxAdapter } from "../../../worker/providers/solax";
import type { SolaxCredentials, SolaxTokenCredentials } from "../../../worker/providers/solax/credentials";
import type { NormalisedSystem } from "../../../worker/providers/types";
import oauthTokenExample from "../../fixtures/provider-examples/solax/openapi-oauth-token.json";
import alarmInfoExample from "../../fixtures/provider-examples/solax/openapi-page_alarm_info.json";
import plantInfoExample from "../../fixtures/provider-examples/solax/openapi-page_plant_info.json";
import v1RateLimitedExample from "../../fixtures/provider-examples/solax/v1-error-rate-limited.json";
import v1NotAccessedExample from "../../fixtures/provider-examples/solax/v1-error-sn-not-accessed.json";
import v1RealtimeExample from "../../fixtures/provider-examples/solax/v1-getRealtimeInfo.json";
import v2DataUnauthorizedExample from "../../fixtures/provider-examples/solax/v2-error-data-unauthorized.json";
import v2TokenInvalidExample from "../../fixtures/provider-examples/solax/v2-error-token-invalid.json";
import v2RealtimeExample from "../../fixtures/provider-examples/solax/v2-realtimeInfo.json";
import { asKnown, readAllPages } from "./all-pages";
import { answersFetch, type Fetch, failure, fixedTimeHarness, movableClock, sandboxFetch } from "./harness";

// 11:22 in Sydney, where the third plant's first inverter has its 11:00-11:45 fault.
const FIXED_NOW = Date.UTC(2024, 5, 2, 1, 22, 30);
const DATA_TIME = dataTimeAt(FIXED_NOW);
const [account, benchAccount] = sandboxAccounts.solax;
const plants = solaxPlants(account);
const wifiSns = [...account.wifiSns];
const tokenCredentials: SolaxCredentials = {
  apiType: "token",
  tokenId: account.tokenId,
  wifiSns,
  timezone: null,
};
const openApiCredentials: SolaxCredentials = {
  apiType: "openapi",
  clientId: account.clientId,
  clientSecret: account.clientSecret,
};
const benchOpenApiCredentials: SolaxCredentials = {
  apiType: "openapi",
  clientId: benchAccount.clientId,
  clientSecret: benchAccount.clientSecret,
};
const stateNames = { online: "online", offline: "offline", fault: "alarm" } as const;

const { context, sandboxContext } = fixedTimeHarness(FIXED_NOW);

/** Serves fixed answers by path (without the sandbox mount), 404 for anything else. */
function exampleFetch(answers: Record<string, unknown>, seen: Request[] = []): Fetch {
  const answerFor = (request: Request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/solax(-openapi)?/, "");
    // The example account holds residential plants only: its commercial list is empty.
    if (path.endsWith("/page_plant_info") && url.searchParams.get("businessType") === "4") {
      return { code: 10000, message: "success", result: { records: [], total: 0, pages: 1 } };
    }
    const answer = answers[path];
    return typeof answer === "function" ? (answer as (r: Request) => unknown)(request) : answer;
  };
  return answersFetch(answerFor, () => new Response("Not Found", { status: 404 }), seen);
}

const V2 = "/api/v2/dataAccess/realtimeInfo/get";
const V1 = "/proxyApp/proxy/api/getRealtimeInfo.do";
const exampleToken = (wifiSn: string, timezone: string | null = null): SolaxTokenCredentials => ({
  apiType: "token",
  tokenId: "20230413001525475278783",
  wifiSns: [wifiSn],
  timezone,
});

const roundTo = (value: number, step: number) => Math.round(value / step) * step;

describe("solax token API against the sandbox", () => {
  it("reads each dongle as one system with one inverter, with the simulation's values", async () => {
    const seen: Request[] = [];
    const ctx = sandboxContext(undefined, undefined, seen);
    const snapshot = await readAllPages(solaxAdapter, ctx, tokenCredentials);

    expect(seen.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual(
      wifiSns.map(() => `POST /solax${V2}`),
    );
    expect(snapshot.systems).toHaveLength(wifiSns.length);
    for (const [p, plant] of plants.entries()) {
      const inverter = plant.inverters[0];
      const state = stateNames[inverterState(plant, 0, DATA_TIME)];
      // yieldtoday and yieldtotal come in kWh with one decimal.
      const todayWh = roundTo(inverterEnergyTodayWh(plant, 0, FIXED_NOW), 100);
      const totalWh = roundTo(inverterEnergyTotalWh(plant, 0, FIXED_NOW), 100);
      const values = {
        state,
        powerW: inverterPowerW(plant, 0, DATA_TIME),
        energyTodayWh: todayWh,
        energyTotalWh: totalWh,
      };
      expect(snapshot.systems[p]).toEqual({
        providerSystemId: wifiSns[p],
        name: `SolaX ${wifiSns[p]}`,
        address: null,
        latitude: null,
        longitude: null,
        timezone: null,
        capacityW: null,
        ...values,
        dataTime: DATA_TIME,
        inverters: [
          {
            providerInverterId: inverter?.serial,
            serial: inverter?.serial,
            model: null,
            ratedPowerW: null,
            ...values,
            temperatureC: null,
            dataTime: DATA_TIME,
          },
        ],
      });
    }
    // Daylight, night and a fault at the fixed instant: every state is exercised.
    expect(snapshot.systems.map((system) => system.state)).toEqual(["online", "offline", "alarm"]);
  });

  it("derives an alarm from a fault status (103) and nothing else", async () => {
    const snapshot = await readAllPages(solaxAdapter, sandboxContext(), tokenCredentials);
    const faulty = plants.flatMap((plant, p) => (activeFault(plant, 0, DATA_TIME) ? [p] : []));
    expect(faulty).toHaveLength(1);
    expect(snapshot.alarms).toEqual(
      faulty.map((p) => ({
        providerAlarmId: `${wifiSns[p]}:inverterStatus:103`,
        providerSystemId: wifiSns[p],
        deviceSerial: plants[p]?.inverters[0]?.serial,
        code: "103",
        title: "Inverter fault",
        message: `SolaX Cloud reports inverter ${plants[p]?.inverters[0]?.serial} in status 103 (fault)`,
        severity: "critical",
        startedAt: DATA_TIME,
        endedAt: null,
      })),
    );
  });

  it("tests the connection by asking each dongle once", async () => {
    const seen: Request[] = [];
    expect(
      await solaxAdapter.testConnection(sandboxContext(undefined, undefined, seen), tokenCredentials),
    ).toEqual({
      sitesFound: 3,
    });
    expect(seen).toHaveLength(3);
    expect(seen[0]?.headers.get("tokenId")).toBe(account.tokenId);
    expect(await seen[0]?.clone().json()).toEqual({ wifiSn: wifiSns[0] });
  });

  it("reports a wrong token as auth", async () => {
    const error = await failure(
      readAllPages(solaxAdapter, sandboxContext(), {
        ...exampleToken(wifiSns[0] ?? ""),
        tokenId: "not-a-token",
      }),
    );
    expect(error.kind).toBe("auth");
  });

  it("reports a dongle of another account readably, without retrying it on v1", async () => {
    const seen: Request[] = [];
    const credentials = { ...tokenCredentials, wifiSns: ["SVNOTMINE1"] } as SolaxCredentials;
    const error = await failure(
      solaxAdapter.testConnection(sandboxContext(undefined, undefined, seen), credentials),
    );
    expect(error.kind).toBe("invalid_request");
    expect(error.message).toBe("Dongle SVNOTMINE1 is not in this token's SolaX Cloud account");
    expect(seen).toHaveLength(1);
  });

  it("enforces 10 calls a minute per token with the vendor's one-hour ban", async () => {
    const clock = movableClock(FIXED_NOW);
    const sandbox = createSandbox({ now: clock.now });
    const ctx = context(sandboxFetch(sandbox), { now: clock.now });
    // Three dongles per snapshot: calls 1-9 pass, the 11th is refused.
    for (let round = 0; round < 3; round++) await readAllPages(solaxAdapter, ctx, tokenCredentials);
    const error = await failure(readAllPages(solaxAdapter, ctx, tokenCredentials));
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(60 * 60 * 1000);
    // A minute later the window is empty, but the ban holds for the hour.
    clock.at += 2 * 60_000;
    expect((await failure(readAllPages(solaxAdapter, ctx, tokenCredentials))).kind).toBe("rate_limited");
    clock.at += 60 * 60_000;
    expect((await readAllPages(solaxAdapter, ctx, tokenCredentials)).systems).toHaveLength(3);
  });

  it("reports a 5xx as unavailable after trying v1 too", async () => {
    const seen: Request[] = [];
    const error = await failure(
      solaxAdapter.testConnection(sandboxContext("500", undefined, seen), tokenCredentials),
    );
    expect(error.kind).toBe("unavailable");
    // Each API is tried again four times (a 5xx is retried inside the run) before giving up.
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual([
      ...Array(5).fill(`/solax${V2}`),
      ...Array(5).fill(`/solax${V1}`),
    ]);
  });

  it("reports the vendor's rate-limit answer as rate_limited", async () => {
    const error = await failure(readAllPages(solaxAdapter, sandboxContext("429"), tokenCredentials));
    expect(error.kind).toBe("rate_limited");
  });

  it("reports invalid JSON and an answer without its result as malformed", async () => {
    expect(
      (await failure(readAllPages(solaxAdapter, sandboxContext("malformed"), tokenCredentials))).kind,
    ).toBe("malformed");
    const partial = await failure(readAllPages(solaxAdapter, sandboxContext("partial"), tokenCredentials));
    expect(partial.kind).toBe("malformed");
    expect(partial.message).toContain(wifiSns[0]);
  });

  it("reports a hanging vendor as timeout, without waiting a second time on v1", async () => {
    const seen: Request[] = [];
    const error = await failure(
      solaxAdapter.testConnection(sandboxContext("timeout", 200, seen), tokenCredentials),
    );
    expect(error.kind).toBe("timeout");
    expect(seen).toHaveLength(1);
  });
});

describe("solax token API against the research's example answers", () => {
  it("normalises a v2 answer: W, kWh to Wh, utcDateTime as the data time", async () => {
    const seen: Request[] = [];
    const snapshot = await readAllPages(
      solaxAdapter,
      context(exampleFetch({ [V2]: v2RealtimeExample }, seen)),
      exampleToken("SVJWACXAK2"),
    );
    const values = {
      state: "online",
      powerW: 2150,
      energyTodayWh: 12600,
      energyTotalWh: 4812300,
      dataTime: Date.UTC(2024, 6, 1, 10, 25, 4),
    };
    expect(snapshot.systems).toEqual([
      {
        providerSystemId: "SVJWACXAK2",
        name: "SolaX SVJWACXAK2",
        address: null,
        latitude: null,
        longitude: null,
        timezone: null,
        capacityW: null,
        ...values,
        inverters: [
          {
            providerInverterId: "X1HYB0123456789",
            serial: "X1HYB0123456789",
            model: null,
            ratedPowerW: null,
            ...values,
            temperatureC: null,
          },
        ],
      },
    ]);
    expect(snapshot.alarms).toEqual([]);
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.headers.get("Content-Type")).toBe("application/json");
  });

  it("falls back to v1 when v2 is missing, reads uploadTime in the configured zone and remembers v1", async () => {
    const seen: Request[] = [];
    const ctx = context(exampleFetch({ [V1]: v1RealtimeExample }, seen));
    const snapshot = await readAllPages(solaxAdapter, ctx, exampleToken("SVJWACXAK2", "Europe/Amsterdam"));
    expect(snapshot.systems[0]).toMatchObject({
      providerSystemId: "SVJWACXAK2",
      timezone: "Europe/Amsterdam",
      state: "online",
      powerW: 4335,
      energyTodayWh: 17400,
      energyTotalWh: 2288800,
      // "2024-01-27 16:41:59" in Amsterdam (UTC+1 in January).
      dataTime: Date.UTC(2024, 0, 27, 15, 41, 59),
    });
    expect(snapshot.systems[0]?.inverters[0]?.serial).toBe("H34A15J2641138");
    const v1Url = new URL(seen[1]?.url ?? "");
    expect(v1Url.searchParams.get("tokenId")).toBe("20230413001525475278783");
    expect(v1Url.searchParams.get("sn")).toBe("SVJWACXAK2");

    // The next sync goes straight to v1.
    await readAllPages(solaxAdapter, ctx, exampleToken("SVJWACXAK2", "Europe/Amsterdam"));
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual([
      `/solax${V2}`,
      `/solax${V1}`,
      `/solax${V1}`,
    ]);
  });

  it("leaves a v1 data time unknown when no zone is configured", async () => {
    const snapshot = await readAllPages(
      solaxAdapter,
      context(exampleFetch({ [V1]: v1RealtimeExample })),
      exampleToken("SVJWACXAK2"),
    );
    expect(snapshot.systems[0]?.dataTime).toBeNull();
  });

  it("maps inverter status codes: 103/104 alarm, 100/109/110 offline", async () => {
    const states: Record<string, string> = {};
    for (const status of ["102", "103", "104", "100", "109", "110"]) {
      const answer = {
        ...v2RealtimeExample,
        result: { ...v2RealtimeExample.result, inverterStatus: status },
      };
      const snapshot = await readAllPages(
        solaxAdapter,
        context(exampleFetch({ [V2]: answer })),
        exampleToken("SVJWACXAK2"),
      );
      states[status] = snapshot.systems[0]?.state ?? "";
      expect(snapshot.alarms).toHaveLength(status === "103" || status === "104" ? 1 : 0);
    }
    expect(states).toEqual({
      "102": "online",
      "103": "alarm",
      "104": "alarm",
      "100": "offline",
      "109": "offline",
      "110": "offline",
    });
  });

  /** How the adapter fails when the API at `path` gives `answer` for the example dongle. */
  const exampleFailure = (path: string, answer: unknown) =>
    failure(
      readAllPages(solaxAdapter, context(exampleFetch({ [path]: answer })), exampleToken("SVJWACXAK2")),
    );

  it("reports the v2 invalid-token code as auth and 1003 as a readable invalid request", async () => {
    const auth = await exampleFailure(V2, v2TokenInvalidExample);
    expect(auth.kind).toBe("auth");
    const foreign = await exampleFailure(V2, v2DataUnauthorizedExample);
    expect(foreign.kind).toBe("invalid_request");
    expect(foreign.message).toContain("SVJWACXAK2");
  });

  it("reports v1's string result and its violation answer", async () => {
    const notAccessed = await exampleFailure(V1, v1NotAccessedExample);
    expect(notAccessed.kind).toBe("invalid_request");
    expect(notAccessed.message).toContain('"this sn did not access!"');
    const limited = await exampleFailure(V1, v1RateLimitedExample);
    expect(limited.kind).toBe("rate_limited");
    expect(limited.retryAfterMs).toBe(60 * 60 * 1000);
  });
});

describe("solax Developer OpenAPI against the sandbox", () => {
  it("lists plants with their inverters, live values and the simulation's numbers", async () => {
    const ctx = sandboxContext();
    const snapshot = await readAllPages(solaxAdapter, ctx, openApiCredentials);
    // Token, then per business type: plants, devices, realtime batches of 10, one alarm page per
    // plant. Residential: 1 + 1 + 1 + 3; commercial (12 inverters): 1 + 2 + 2 + 1.
    expect(ctx.http.calls).toBe(4 + plants.length + 6);
    expect(snapshot.systems).toHaveLength(plants.length + 1);
    for (const [p, plant] of plants.entries()) {
      const inverters = plant.inverters.map((inverter, i) => ({
        providerInverterId: inverter.serial,
        serial: inverter.serial,
        model: null,
        ratedPowerW: null,
        state: stateNames[inverterState(plant, i, DATA_TIME)],
        powerW: inverterPowerW(plant, i, DATA_TIME),
        // dailyYield comes in kWh with two decimals, totalYield with one.
        energyTodayWh: roundTo(inverterEnergyTodayWh(plant, i, FIXED_NOW), 10),
        energyTotalWh: roundTo(inverterEnergyTotalWh(plant, i, FIXED_NOW), 100),
        temperatureC: inverterTemperatureC(plant, i, DATA_TIME),
        dataTime: DATA_TIME,
      }));
      const total = (key: "powerW" | "energyTodayWh" | "energyTotalWh") =>
        inverters.reduce((sum, inverter) => sum + inverter[key], 0);
      const states = inverters.map((inverter) => inverter.state);
      expect(snapshot.systems[p]).toEqual({
        providerSystemId: plant.id,
        name: plant.name,
        address: `${plant.street}, ${plant.city}, ${plant.country}`,
        latitude: plant.latitude,
        longitude: plant.longitude,
        timezone: null,
        capacityW: plant.capacityW,
        providerGroup: "1",
        state: states.includes("alarm") ? "alarm" : states.includes("online") ? "online" : "offline",
        powerW: total("powerW"),
        energyTodayWh: total("energyTodayWh"),
        energyTotalWh: total("energyTotalWh"),
        dataTime: DATA_TIME,
        inverters,
      });
      expect(snapshot.systems[p]?.providerSystemId).toMatch(/^\d{19}$/);
    }
  });

  it("includes commercial and industrial plants (business type 4) with capacity, address and coordinates", async () => {
    const seen: Request[] = [];
    const snapshot = await readAllPages(
      solaxAdapter,
      sandboxContext(undefined, undefined, seen),
      openApiCredentials,
    );
    const [commercial] = solaxCommercialPlants(account);
    if (!commercial) throw new Error("the sandbox account holds a commercial plant");
    const system = snapshot.systems.find((candidate) => candidate.providerSystemId === commercial.id);
    expect(system).toMatchObject({
      name: commercial.name,
      capacityW: 150_000,
      address: `${commercial.street}, ${commercial.city}, ${commercial.country}`,
      latitude: commercial.latitude,
      longitude: commercial.longitude,
    });
    expect(system?.inverters.map((inverter) => inverter.serial)).toEqual(
      commercial.inverters.map((inverter) => inverter.serial),
    );
    expect(system?.inverters).toHaveLength(12);
    expect(system?.powerW).toBe(
      commercial.inverters.reduce((sum, _, i) => sum + inverterPowerW(commercial, i, DATA_TIME), 0),
    );
    // Every call for it names business type 4; the residential ones name 1.
    const commercialCalls = seen
      .map((request) => new URL(request.url))
      .filter((url) => url.searchParams.get("businessType") === "4");
    expect(commercialCalls.map((url) => url.pathname.replace("/solax-openapi/openapi/v2/", ""))).toEqual([
      "plant/page_plant_info",
      "device/page_device_info",
      "device/page_device_info",
      "device/realtime_data",
      "device/realtime_data",
      "alarm/page_alarm_info",
    ]);
  });

  it("reads only the stored plants' live values and alarms on a steady cycle, each by its business type", async () => {
    const listed = await readAllPages(solaxAdapter, sandboxContext(), openApiCredentials);
    const seen: Request[] = [];
    const steady = await readAllPages(
      solaxAdapter,
      sandboxContext(undefined, undefined, seen),
      openApiCredentials,
      listed.systems.map(asKnown),
    );
    // The same instant gives the same plants, values and alarms, without the lists.
    expect(steady).toEqual(listed);
    const data = seen
      .map((request) => new URL(request.url))
      .filter((url) => url.pathname.includes("/openapi/v2/"))
      .map(
        (url) =>
          `${url.pathname.replace("/solax-openapi/openapi/v2/", "")} ${url.searchParams.get("businessType")}`,
      );
    expect(data.filter((call) => call.startsWith("plant/") || call.startsWith("device/page"))).toEqual([]);
    // Commercial plant: 12 inverters in 2 realtime calls and one alarm page, all naming type 4.
    expect(data.filter((call) => call.endsWith(" 4"))).toEqual([
      "device/realtime_data 4",
      "device/realtime_data 4",
      "alarm/page_alarm_info 4",
    ]);
    expect(data.filter((call) => call === "alarm/page_alarm_info 1")).toHaveLength(plants.length);
  });

  it("answers a stored plant SolaX no longer lists with a StaleListsError", async () => {
    const listed = await readAllPages(solaxAdapter, sandboxContext(), openApiCredentials);
    const known = listed.systems.map(asKnown);
    const gone = {
      ...asKnown(listed.systems[0] as NormalisedSystem),
      providerSystemId: "1999999999999999999",
    };
    await expect(
      readAllPages(solaxAdapter, sandboxContext(), openApiCredentials, [...known, gone]),
    ).rejects.toBeInstanceOf(StaleListsError);
  });

  it("reports ongoing alarms with their start in UTC, from the plant's local time", async () => {
    const snapshot = await readAllPages(solaxAdapter, sandboxContext(), openApiCredentials);
    const expected = plants.flatMap((plant) =>
      plant.inverters.flatMap((inverter, i) => {
        const fault = activeFault(plant, i, FIXED_NOW);
        return fault
          ? [
              {
                providerSystemId: plant.id,
                deviceSerial: inverter.serial,
                code: fault.code,
                title: fault.message,
                severity: "critical",
                startedAt: fault.startsAt,
                endedAt: null,
              },
            ]
          : [];
      }),
    );
    expect(expected).toHaveLength(1);
    expect(snapshot.alarms).toMatchObject(expected);
  });

  it("caches the token in the session and renews it when it expires", async () => {
    const clock = movableClock(FIXED_NOW);
    const seen: Request[] = [];
    const ctx = context(sandboxFetch(createSandbox({ now: clock.now }), { seen }), { now: clock.now });
    const tokenCalls = () => seen.filter((request) => request.url.endsWith("/oauth/token")).length;
    await solaxAdapter.testConnection(ctx, openApiCredentials);
    await solaxAdapter.testConnection(ctx, openApiCredentials);
    expect(tokenCalls()).toBe(1);
    expect(seen[1]?.headers.get("Authorization")).toMatch(/^bearer sbx-/);
    // The sandbox's tokens last an hour.
    clock.at += 2 * 60 * 60_000;
    expect(await solaxAdapter.testConnection(ctx, openApiCredentials)).toEqual({ sitesFound: 4 });
    expect(tokenCalls()).toBe(2);
  });

  it("fetches a new token once when the cached one is refused (10402)", async () => {
    const seen: Request[] = [];
    const ctx = sandboxContext(undefined, undefined, seen);
    ctx.session.set({ solaxAccessToken: "sbx-revoked", solaxAccessTokenExpiresAt: FIXED_NOW + 86_400_000 });
    // Three residential plants and one commercial.
    expect(await solaxAdapter.testConnection(ctx, openApiCredentials)).toEqual({ sitesFound: 4 });
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual([
      "/solax-openapi/openapi/v2/plant/page_plant_info",
      "/solax-openapi/openapi/auth/oauth/token",
      "/solax-openapi/openapi/v2/plant/page_plant_info",
      "/solax-openapi/openapi/v2/plant/page_plant_info",
    ]);
    expect(ctx.session.get()?.solaxAccessToken).not.toBe("sbx-revoked");
  });

  it("reports a wrong client secret as auth", async () => {
    const error = await failure(
      solaxAdapter.testConnection(sandboxContext(), {
        ...openApiCredentials,
        clientSecret: "wrong",
      } as SolaxCredentials),
    );
    expect(error.kind).toBe("auth");
  });

  it("enforces 100 calls a minute per application with code 10406", async () => {
    const ctx = sandboxContext();
    // Time stands still, so the bench account's 800-odd calls cross the limit.
    const error = await failure(readAllPages(solaxAdapter, ctx, benchOpenApiCredentials));
    expect(error.kind).toBe("rate_limited");
    // No wait is named, so the transport backs off and asks again four times, then gives up.
    expect(error.retryAfterMs).toBeUndefined();
    expect(ctx.http.retries).toBe(4);
    expect(ctx.http.calls).toBe(105);
  });

  /** The sandbox on a clock that moves 600 ms a call (the OpenAPI's pace), recording every request. */
  function pacedSandbox() {
    const clock = movableClock(FIXED_NOW);
    const seen: Request[] = [];
    const sandbox = createSandbox({ now: clock.now });
    const paced: Fetch = (request) => {
      clock.at += 600;
      return sandboxFetch(sandbox, { seen })(request);
    };
    return { clock, seen, paced };
  }

  it("pages through an account with 500 plants at the allowed pace", async () => {
    const { clock, seen, paced } = pacedSandbox();
    const snapshot = await readAllPages(
      solaxAdapter,
      context(paced, { now: clock.now }),
      benchOpenApiCredentials,
    );
    const benchPlants = solaxPlants(benchAccount);
    expect(snapshot.systems).toHaveLength(500);
    expect(snapshot.systems.map((system) => system.providerSystemId)).toEqual(
      benchPlants.map((plant) => plant.id),
    );
    expect(snapshot.systems.flatMap((system) => system.inverters)).toHaveLength(
      benchPlants.reduce((count, plant) => count + plant.inverters.length, 0),
    );
    const paths = seen.map((request) => new URL(request.url));
    // 50 residential pages and one (empty) commercial list.
    expect(paths.filter((url) => url.pathname.endsWith("/page_plant_info"))).toHaveLength(51);
    const batches = paths.filter((url) => url.pathname.endsWith("/device/realtime_data"));
    expect(batches.every((url) => (url.searchParams.get("snList") ?? "").split(",").length <= 10)).toBe(true);
  }, 60_000);

  it("keeps each unit of a 500-plant account small: the lists once, then 40 plants a unit", async () => {
    const { clock, seen, paced } = pacedSandbox();
    const ctx = context(paced, { now: clock.now });
    const units: { systems: number; calls: number }[] = [];
    let cursor: string | null = null;
    do {
      const before = seen.length;
      const page = await solaxAdapter.syncPage(ctx, benchOpenApiCredentials, cursor, null);
      units.push({ systems: page.systems.length, calls: seen.length - before });
      cursor = page.nextCursor;
    } while (cursor !== null);
    // 500 residential plants in 13 units, then the (empty) commercial list.
    expect(units.map((unit) => unit.systems)).toEqual([...Array(12).fill(40), 20, 0]);
    const listCalls = seen.filter((request) => /page_(plant|device)_info/.test(request.url)).length;
    expect(units.slice(1).every((unit) => unit.calls <= 40 + 40)).toBe(true);
    expect(units[0]?.calls).toBeGreaterThan(listCalls - 2);
  }, 60_000);

  it("maps 5xx, 10406, invalid JSON, a missing result and a hang to their kinds", async () => {
    const kind = async (fault: string, timeoutMs?: number) =>
      (await failure(readAllPages(solaxAdapter, sandboxContext(fault, timeoutMs), openApiCredentials))).kind;
    expect(await kind("500")).toBe("unavailable");
    expect(await kind("429")).toBe("rate_limited");
    expect(await kind("malformed")).toBe("malformed");
    expect(await kind("partial")).toBe("malformed");
    expect(await kind("timeout", 200)).toBe("timeout");
  });
});

describe("solax Developer OpenAPI against the research's example answers", () => {
  const plantId = "1680123456789012345";
  const answers = {
    "/openapi/auth/oauth/token": oauthTokenExample,
    "/openapi/v2/plant/page_plant_info": plantInfoExample,
    "/openapi/v2/device/page_device_info": {
      code: 10000,
      message: "success",
      result: {
        records: [
          {
            deviceSn: "X1HYB0123456789",
            plantId,
            deviceType: 1,
            businessType: 1,
            onlineStatus: 1,
            deviceModel: 15,
          },
        ],
        total: 1,
        size: 10,
        current: 1,
        pages: 1,
      },
    },
    // Field names and formats from a captured realtime/history row.
    "/openapi/v2/device/realtime_data": {
      code: 10000,
      result: [
        {
          deviceSn: "X1HYB0123456789",
          deviceStatus: 102,
          dataTime: "2024-07-01T10:25:04Z",
          plantLocalTime: "2024-07-01 12:25:04",
          totalActivePower: 2150,
          dailyYield: "12.60",
          totalYield: 4812.3,
          inverterTemperature: 42.0,
        },
      ],
    },
    "/openapi/v2/alarm/page_alarm_info": alarmInfoExample,
  };

  it("normalises plants, inverters, units, ids and alarm times exactly", async () => {
    const seen: Request[] = [];
    const ctx = context(exampleFetch(answers, seen));
    const snapshot = await readAllPages(solaxAdapter, ctx, openApiCredentials);
    const inverter = {
      providerInverterId: "X1HYB0123456789",
      serial: "X1HYB0123456789",
      model: null,
      ratedPowerW: null,
      state: "online",
      powerW: 2150,
      energyTodayWh: 12600,
      energyTotalWh: 4812300,
      temperatureC: 42,
      dataTime: Date.UTC(2024, 6, 1, 10, 25, 4),
    };
    expect(snapshot.systems).toEqual([
      {
        providerSystemId: plantId,
        name: "Keizersgracht 12",
        address: null,
        latitude: null,
        longitude: null,
        timezone: null,
        capacityW: null,
        providerGroup: "1",
        // The example has an ongoing Grid Fault.
        state: "alarm",
        powerW: 2150,
        energyTodayWh: 12600,
        energyTotalWh: 4812300,
        dataTime: Date.UTC(2024, 6, 1, 10, 25, 4),
        inverters: [inverter],
      },
    ]);
    expect(snapshot.alarms).toEqual([
      {
        providerAlarmId: `${plantId}:X1HYB0123456789:60:2024-07-01 10:00:00`,
        providerSystemId: plantId,
        deviceSerial: "X1HYB0123456789",
        code: "60",
        title: "Grid Fault",
        message: "Grid Fault (error code 60) on X1HYB0123456789",
        severity: "critical",
        // 10:00 on the plant's clock, two hours ahead of UTC by its realtime row.
        startedAt: Date.UTC(2024, 6, 1, 8, 0, 0),
        endedAt: null,
      },
    ]);
    const token = seen.find((request) => request.url.endsWith("/oauth/token"));
    expect(token?.method).toBe("POST");
    expect(new TextDecoder().decode(await token?.clone().arrayBuffer())).toBe(
      `client_id=${account.clientId}&client_secret=${account.clientSecret}&grant_type=client_credentials`,
    );
    const data = seen.filter((request) => request.url.includes("/openapi/v2/"));
    for (const request of data)
      expect(request.headers.get("Authorization")).toBe(`bearer ${oauthTokenExample.result.access_token}`);
    const realtime = new URL(data.find((request) => request.url.includes("realtime_data"))?.url ?? "");
    expect(Object.fromEntries(realtime.searchParams)).toEqual({
      snList: "X1HYB0123456789",
      deviceType: "1",
      businessType: "1",
    });
  });

  it("counts the plants for the connection test", async () => {
    expect(await solaxAdapter.testConnection(context(exampleFetch(answers)), openApiCredentials)).toEqual({
      sitesFound: 1,
    });
  });

  it("reports auth codes as auth after one token renewal", async () => {
    const seen: Request[] = [];
    const refused = {
      ...answers,
      "/openapi/v2/plant/page_plant_info": { code: 10402, message: "token expired", result: null },
    };
    const error = await failure(
      solaxAdapter.testConnection(context(exampleFetch(refused, seen)), openApiCredentials),
    );
    expect(error.kind).toBe("auth");
    expect(seen.filter((request) => request.url.endsWith("/oauth/token"))).toHaveLength(2);
  });

  it("reports a record without its id as malformed", async () => {
    const broken = {
      ...answers,
      "/openapi/v2/plant/page_plant_info": {
        code: 10000,
        result: { records: [{ plantName: "x" }], pages: 1 },
      },
    };
    const error = await failure(
      readAllPages(solaxAdapter, context(exampleFetch(broken)), openApiCredentials),
    );
    expect(error.kind).toBe("malformed");
    expect(error.message).toContain("records.0.plantId");
  });
});

describe("solax credentials", () => {
  const form = { apiType: "", tokenId: "", wifiSns: "", timezone: "", clientId: "", clientSecret: "" };

  it("reads the token API's dongle list, separated by commas, spaces or lines", () => {
    expect(
      solaxAdapter.credentialsSchema.parse({
        ...form,
        apiType: "token",
        tokenId: " 2024token ",
        wifiSns: "SVAAAAAAA1, SVAAAAAAA2\nSVAAAAAAA3 SVAAAAAAA1",
        timezone: "Europe/Amsterdam",
      }),
    ).toEqual({
      apiType: "token",
      tokenId: "2024token",
      wifiSns: ["SVAAAAAAA1", "SVAAAAAAA2", "SVAAAAAAA3"],
      timezone: "Europe/Amsterdam",
    });
  });

  it("names what each API needs", () => {
    const message = (values: Record<string, string>) =>
      solaxAdapter.credentialsSchema.safeParse({ ...form, ...values }).error?.issues[0]?.message;
    expect(message({ apiType: "token" })).toBe("Token ID is required");
    expect(message({ apiType: "token", tokenId: "t" })).toBe("Dongle registration numbers is required");
    expect(message({ apiType: "token", tokenId: "t", wifiSns: "SV-1" })).toContain(
      "is not a dongle registration number",
    );
    expect(
      message({ apiType: "token", tokenId: "t", wifiSns: "SVAAAAAAA1", timezone: "Mars/Base" }),
    ).toContain("IANA");
    expect(message({ apiType: "openapi" })).toBe("Client ID is required");
    expect(message({ apiType: "openapi", clientId: "c" })).toBe("Client secret is required");
    expect(message({ apiType: "fax" })).toContain("token");
    expect(solaxAdapter.credentialsSchema.safeParse({ ...form, unknown: "x" }).success).toBe(false);
    expect(
      solaxAdapter.credentialsSchema.parse({
        ...form,
        apiType: "openapi",
        clientId: " c ",
        clientSecret: "s",
      }),
    ).toEqual({ apiType: "openapi", clientId: "c", clientSecret: "s" });
  });

  it("budgets calls by the API in use: 9 a minute and 10,000 a day per token, 90 a minute for the OpenAPI", () => {
    expect(solaxAdapter.callPlan(tokenCredentials)).toEqual({
      key: `token:${account.tokenId}`,
      secret: account.tokenId,
      perEndpoint: false,
      limits: [
        { intervalMs: 7000, burst: 1 },
        { intervalMs: 9600, burst: 1000 },
      ],
    });
    expect(solaxAdapter.callPlan(openApiCredentials)).toEqual({
      key: `openapi:${account.clientId}`,
      secret: account.clientSecret,
      perEndpoint: false,
      limits: [{ intervalMs: 667, burst: 1 }],
    });
    expect(
      solaxAdapter.fields.find((field) => field.name === "apiType")?.options?.map((option) => option.value),
    ).toEqual(["token", "openapi"]);
  });
});
