import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { froniusGuid } from "../../../sandbox/fronius";
import {
  activeFault,
  dataTimeAt,
  plantEnergyTodayWh,
  plantPowerW,
  plantState,
  simulatedPlants,
} from "../../../sandbox/simulation";
import { froniusAdapter } from "../../../worker/providers/fronius";
import aggrDataExample from "../../fixtures/provider-examples/fronius-swqapi/aggrdata.json";
import devicesExample from "../../fixtures/provider-examples/fronius-swqapi/devices.json";
import error401Example from "../../fixtures/provider-examples/fronius-swqapi/error-401.json";
import flowDataExample from "../../fixtures/provider-examples/fronius-swqapi/flowdata.json";
import pvSystemsExample from "../../fixtures/provider-examples/fronius-swqapi/pvsystems.json";
import pvSystemsListExample from "../../fixtures/provider-examples/fronius-swqapi/pvsystems-list.json";
import { readAllPages } from "./all-pages";
import { answersFetch, type Fetch, failure, fixedTimeHarness, sandboxFetch } from "./harness";

// 11:22 in Phoenix, where the first plant's first inverter has its 11:00-11:45 fault.
const FIXED_NOW = Date.UTC(2024, 5, 4, 18, 22, 30);
const DATA_TIME = dataTimeAt(FIXED_NOW);
const [account, benchAccount] = sandboxAccounts.fronius;
const credentials = { accessKeyId: account.accessKeyId, accessKeyValue: account.accessKeyValue };
const benchCredentials = {
  accessKeyId: benchAccount.accessKeyId,
  accessKeyValue: benchAccount.accessKeyValue,
};
const plants = simulatedPlants("fronius", account.accessKeyId, account.plants);
const stateNames = { online: "online", offline: "offline", fault: "alarm" } as const;

const { context, sandboxContext } = fixedTimeHarness(FIXED_NOW);

const EXAMPLE_SYSTEM = "20bb600e-019b-4e03-9df3-a0a900cda689";
const exampleMessages = {
  pvSystemId: EXAMPLE_SYSTEM,
  messages: [
    {
      stateType: "Error",
      stateCode: 567,
      stateSeverity: "Warning",
      logDateTime: "2024-07-01T09:12:00Z",
      text: "Grid voltage above limit",
    },
  ],
};

/** Serves the research's example answers by path, as Solar.web would for a valid key. */
const exampleFetch = (answers: Record<string, unknown>, seen: Request[] = []): Fetch =>
  answersFetch(
    (request) => answers[new URL(request.url).pathname.replace(/^\/fronius/, "")],
    () => Response.json({ responseError: 1404, responseMessage: "Not found" }, { status: 404 }),
    seen,
  );

const exampleAnswers: Record<string, unknown> = {
  "/pvsystems": pvSystemsExample,
  "/pvsystems-list": pvSystemsListExample,
  [`/pvsystems/${EXAMPLE_SYSTEM}/devices`]: devicesExample,
  [`/pvsystems/${EXAMPLE_SYSTEM}/flowdata`]: flowDataExample,
  [`/pvsystems/${EXAMPLE_SYSTEM}/aggrdata`]: aggrDataExample,
  [`/pvsystems/${EXAMPLE_SYSTEM}/messages`]: exampleMessages,
};
// 12:30 in Amsterdam on the examples' day.
const EXAMPLE_NOW = Date.UTC(2024, 6, 1, 10, 30);

describe("fronius adapter against the sandbox", () => {
  it("lists every PV system with its inverters and the simulation's values at the vendor's data time", async () => {
    const ctx = sandboxContext();
    const snapshot = await readAllPages(froniusAdapter, ctx, credentials);

    // One page of systems, then devices, flowdata, aggrdata and messages per system.
    expect(ctx.http.calls).toBe(1 + 4 * plants.length);
    expect(snapshot.systems).toHaveLength(plants.length);
    for (const [p, plant] of plants.entries()) {
      const system = snapshot.systems[p];
      expect(system).toEqual({
        providerSystemId: froniusGuid(plant.id),
        name: plant.name,
        address: `${plant.street}, ${plant.city}, ${plant.country}`,
        latitude: null,
        longitude: null,
        timezone: plant.timezone,
        capacityW: plant.capacityW,
        state: stateNames[plantState(plant, DATA_TIME)],
        powerW: plantPowerW(plant, DATA_TIME),
        energyTodayWh: plantEnergyTodayWh(plant, FIXED_NOW),
        energyTotalWh: null,
        dataTime: DATA_TIME,
        inverters: plant.inverters.map((inverter) => ({
          providerInverterId: froniusGuid(inverter.id),
          serial: inverter.serial,
          model: inverter.model,
          ratedPowerW: inverter.ratedPowerW,
          // Per-device live values are billed and not read; the state follows the connection.
          state: plantState(plant, DATA_TIME) === "offline" ? "offline" : "online",
          powerW: null,
          energyTodayWh: null,
          energyTotalWh: null,
          temperatureC: null,
          dataTime: DATA_TIME,
        })),
      });
    }
    // The data logger is a device but not an inverter.
    expect(snapshot.systems.flatMap((system) => system.inverters)).toHaveLength(
      plants.reduce((count, plant) => count + plant.inverters.length, 0),
    );
    // Daylight, a fault and night at the fixed instant: every state is exercised.
    expect(snapshot.systems.map((system) => system.state)).toEqual(["alarm", "online", "offline"]);
  });

  it("keeps every vendor id a string", async () => {
    const snapshot = await readAllPages(froniusAdapter, sandboxContext(), credentials);
    const ids = snapshot.systems.flatMap((system) => [
      system.providerSystemId,
      ...system.inverters.map((inverter) => inverter.providerInverterId),
    ]);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("reports the ongoing faults from the messages call as critical alarms", async () => {
    const snapshot = await readAllPages(froniusAdapter, sandboxContext(), credentials);
    const expected = plants.flatMap((plant) =>
      plant.inverters.flatMap((_, i) => {
        const fault = activeFault(plant, i, FIXED_NOW);
        if (!fault) return [];
        return [
          {
            providerAlarmId: `${froniusGuid(plant.id)}:${fault.code}:${new Date(fault.startsAt).toISOString().replace(".000", "")}`,
            providerSystemId: froniusGuid(plant.id),
            deviceSerial: null,
            code: fault.code,
            title: fault.message,
            severity: "critical",
            startedAt: fault.startsAt,
            endedAt: null,
          },
        ];
      }),
    );
    expect(expected).toHaveLength(1);
    expect(snapshot.alarms).toMatchObject(expected);
  });

  it("asks aggrdata for the system's local day and flowdata in UTC", async () => {
    const seen: Request[] = [];
    // 00:30 in Madrid is still the previous day in UTC.
    const lateNow = Date.UTC(2024, 5, 4, 22, 30);
    const sandbox = createSandbox({ now: () => lateNow });
    await readAllPages(
      froniusAdapter,
      context(sandboxFetch(sandbox, { seen }), { now: () => lateNow }),
      credentials,
    );
    const urls = seen.map((request) => new URL(request.url));
    const aggr = urls.filter((url) => url.pathname.endsWith("/aggrdata"));
    expect(plants.map((plant) => plant.timezone)).toEqual([
      "America/Phoenix",
      "Europe/Madrid",
      "Australia/Sydney",
    ]);
    const expectedDays = ["2024-06-04", "2024-06-05", "2024-06-05"];
    expect(aggr.map((url) => url.searchParams.get("from"))).toEqual(expectedDays);
    expect(aggr.map((url) => url.searchParams.get("to"))).toEqual(expectedDays);
    expect(aggr.every((url) => url.searchParams.get("channel") === "EnergyProductionTotal")).toBe(true);
    const flow = urls.filter((url) => url.pathname.endsWith("/flowdata"));
    expect(flow.every((url) => url.searchParams.get("timezone") === "zulu")).toBe(true);
    for (const request of seen) {
      expect(request.headers.get("AccessKeyId")).toBe(credentials.accessKeyId);
      expect(request.headers.get("AccessKeyValue")).toBe(credentials.accessKeyValue);
      expect(request.headers.get("Accept")).toBe("application/json");
    }
  });

  it("tests the connection with the unbilled system list alone", async () => {
    const seen: Request[] = [];
    const result = await froniusAdapter.testConnection(
      sandboxContext(undefined, undefined, seen),
      credentials,
    );
    expect(result).toEqual({ sitesFound: plants.length });
    expect(seen.map((request) => new URL(request.url).pathname)).toEqual(["/fronius/pvsystems-list"]);
  });

  it("follows the pages of an account with 500 PV systems", async () => {
    const seen: Request[] = [];
    const ctx = sandboxContext(undefined, undefined, seen);
    const snapshot = await readAllPages(froniusAdapter, ctx, benchCredentials);
    expect(snapshot.systems).toHaveLength(500);
    expect(new Set(snapshot.systems.map((system) => system.providerSystemId)).size).toBe(500);
    const pages = seen.filter((request) => new URL(request.url).pathname === "/fronius/pvsystems");
    expect(pages.map((request) => new URL(request.url).searchParams.get("offset"))).toEqual([
      "0",
      "100",
      "200",
      "300",
      "400",
    ]);
    expect(await froniusAdapter.testConnection(sandboxContext(), benchCredentials)).toEqual({
      sitesFound: 500,
    });
  }, 60_000);
});

describe("fronius adapter failures", () => {
  it("answers a wrong key with the vendor's 401 body, which the adapter reports as auth", async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    const response = await sandbox.fetch(
      new Request("http://sandbox.test/fronius/pvsystems", {
        headers: {
          AccessKeyId: credentials.accessKeyId,
          AccessKeyValue: "00000000-0000-0000-0000-000000000000",
        },
      }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(error401Example);

    const error = await failure(
      readAllPages(froniusAdapter, sandboxContext(), { ...credentials, accessKeyValue: "wrong" }),
    );
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("AccessKeyId");
    expect(
      (
        await failure(
          froniusAdapter.testConnection(sandboxContext(), { ...credentials, accessKeyId: "FKIAX" }),
        )
      ).kind,
    ).toBe("auth");
  });

  it("reports a 5xx as unavailable", async () => {
    expect((await failure(readAllPages(froniusAdapter, sandboxContext("500"), credentials))).kind).toBe(
      "unavailable",
    );
  });

  it("reports a 429 as rate_limited with the vendor's Retry-After", async () => {
    const error = await failure(readAllPages(froniusAdapter, sandboxContext("429"), credentials));
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(60_000);
  });

  it("reports invalid JSON and an answer without its data as malformed", async () => {
    expect((await failure(readAllPages(froniusAdapter, sandboxContext("malformed"), credentials))).kind).toBe(
      "malformed",
    );
    const partial = await failure(readAllPages(froniusAdapter, sandboxContext("partial"), credentials));
    expect(partial.kind).toBe("malformed");
    expect(partial.message).toContain("pvSystems");
  });

  it("reports a hanging vendor as timeout", async () => {
    const error = await failure(froniusAdapter.testConnection(sandboxContext("timeout", 200), credentials));
    expect(error.kind).toBe("timeout");
  });
});

describe("fronius adapter against the research's example answers", () => {
  it("normalises units, ids, state and the data time exactly", async () => {
    const seen: Request[] = [];
    const ctx = context(exampleFetch(exampleAnswers, seen), { now: () => EXAMPLE_NOW });
    const snapshot = await readAllPages(froniusAdapter, ctx, credentials);
    expect(snapshot.systems).toEqual([
      {
        providerSystemId: EXAMPLE_SYSTEM,
        name: "Keizersgracht 12",
        address: "Keizersgracht 12, 1015 CS Amsterdam, NL",
        latitude: null,
        longitude: null,
        timezone: "Europe/Amsterdam",
        capacityW: 6400,
        state: "online",
        powerW: 3215,
        energyTodayWh: 18600,
        energyTotalWh: null,
        dataTime: Date.UTC(2024, 6, 1, 10, 25, 13),
        inverters: [
          {
            providerInverterId: "d1f4b2aa-3c55-4d0e-9b0a-7e2f1c9a0b11",
            serial: "28123456",
            model: "Symo 6.0-3-M",
            ratedPowerW: 6000,
            state: "online",
            powerW: null,
            energyTodayWh: null,
            energyTotalWh: null,
            temperatureC: null,
            dataTime: Date.UTC(2024, 6, 1, 10, 25, 13),
          },
        ],
      },
    ]);
    expect(snapshot.alarms).toEqual([
      {
        providerAlarmId: `${EXAMPLE_SYSTEM}:567:2024-07-01T09:12:00Z`,
        providerSystemId: EXAMPLE_SYSTEM,
        deviceSerial: null,
        code: "567",
        title: "Grid voltage above limit",
        message: "Error · code 567 · Grid voltage above limit",
        severity: "warning",
        startedAt: Date.UTC(2024, 6, 1, 9, 12),
        endedAt: null,
      },
    ]);
    const aggr = seen
      .map((request) => new URL(request.url))
      .find((url) => url.pathname.endsWith("/aggrdata"));
    expect(aggr?.searchParams.get("from")).toBe("2024-07-01");
  });

  it("counts the systems of the unbilled list", async () => {
    const ctx = context(exampleFetch(exampleAnswers));
    expect(await froniusAdapter.testConnection(ctx, credentials)).toEqual({ sitesFound: 2 });
  });

  it("reads the lower-case timezone and numbers sent as strings", async () => {
    const [system] = pvSystemsExample.pvSystems;
    const { timeZone: _zone, ...rest } = system ?? { timeZone: "" };
    const seen: Request[] = [];
    // 01:30 on 2 July in Amsterdam, still 1 July in UTC.
    const now = Date.UTC(2024, 6, 1, 23, 30);
    const answers = {
      ...exampleAnswers,
      "/pvsystems": {
        ...pvSystemsExample,
        pvSystems: [{ ...rest, timezone: "Europe/Amsterdam", peakPower: "6400" }],
      },
      [`/pvsystems/${EXAMPLE_SYSTEM}/flowdata`]: {
        ...flowDataExample,
        data: { ...flowDataExample.data, channels: [{ channelName: "PowerPV", unit: "kW", value: "3.215" }] },
      },
    };
    const snapshot = await readAllPages(
      froniusAdapter,
      context(exampleFetch(answers, seen), { now: () => now }),
      credentials,
    );
    expect(snapshot.systems[0]).toMatchObject({
      timezone: "Europe/Amsterdam",
      capacityW: 6400,
      powerW: 3215,
    });
    const aggr = seen
      .map((request) => new URL(request.url))
      .find((url) => url.pathname.endsWith("/aggrdata"));
    expect(aggr?.searchParams.get("from")).toBe("2024-07-02");
  });

  it("maps message severities: Error critical, Warning warning, anything else info", async () => {
    const messages = ["Error", "Warning", "Information"].map((stateSeverity, index) => ({
      stateType: "Event",
      stateCode: index,
      stateSeverity,
      logDateTime: `2024-07-01T0${index}:00:00Z`,
      text: null,
    }));
    const answers = { ...exampleAnswers, [`/pvsystems/${EXAMPLE_SYSTEM}/messages`]: { messages } };
    const snapshot = await readAllPages(
      froniusAdapter,
      context(exampleFetch(answers), { now: () => EXAMPLE_NOW }),
      credentials,
    );
    expect(snapshot.alarms?.map((alarm) => alarm.severity)).toEqual(["critical", "warning", "info"]);
    expect(snapshot.systems[0]?.state).toBe("alarm");
  });

  it("reports no alarm source (null) when the messages call does not exist, asking only once", async () => {
    const second = { ...pvSystemsExample.pvSystems[0], pvSystemId: "second" };
    const seen: Request[] = [];
    const answers: Record<string, unknown> = {
      ...exampleAnswers,
      "/pvsystems": { ...pvSystemsExample, pvSystems: [...pvSystemsExample.pvSystems, second] },
      "/pvsystems/second/devices": devicesExample,
      "/pvsystems/second/flowdata": flowDataExample,
      "/pvsystems/second/aggrdata": aggrDataExample,
    };
    delete answers[`/pvsystems/${EXAMPLE_SYSTEM}/messages`];
    const snapshot = await readAllPages(
      froniusAdapter,
      context(exampleFetch(answers, seen), { now: () => EXAMPLE_NOW }),
      credentials,
    );
    expect(snapshot.systems).toHaveLength(2);
    expect(snapshot.alarms).toBeNull();
    expect(seen.filter((request) => request.url.endsWith("/messages"))).toHaveLength(1);
  });

  it("reports the example 401 body as auth", async () => {
    const answers = { "/pvsystems-list": new Response(JSON.stringify(error401Example), { status: 401 }) };
    const error = await failure(froniusAdapter.testConnection(context(exampleFetch(answers)), credentials));
    expect(error.kind).toBe("auth");
  });

  it("reports a PV system without an id as malformed, naming the field", async () => {
    const answers = { ...exampleAnswers, "/pvsystems": { pvSystems: [{ name: "No id" }], links: null } };
    const error = await failure(readAllPages(froniusAdapter, context(exampleFetch(answers)), credentials));
    expect(error.kind).toBe("malformed");
    expect(error.message).toContain("pvSystems.0.pvSystemId");
  });
});

describe("fronius credentials", () => {
  it("trims the key pair and names a missing field", () => {
    expect(
      froniusAdapter.credentialsSchema.parse({
        accessKeyId: ` ${account.accessKeyId} `,
        accessKeyValue: " v ",
      }),
    ).toEqual({ accessKeyId: account.accessKeyId, accessKeyValue: "v" });
    const missing = froniusAdapter.credentialsSchema.safeParse({
      accessKeyId: account.accessKeyId,
      accessKeyValue: " ",
    });
    expect(missing.error?.issues[0]?.message).toBe("Access key value is required");
    expect(froniusAdapter.credentialsSchema.safeParse({ ...credentials, extra: "x" }).success).toBe(false);
    expect(froniusAdapter.fields.find((field) => field.name === "accessKeyValue")?.type).toBe("password");
  });
});
