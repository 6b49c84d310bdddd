import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { createSandbox } from "../../sandbox/app";
import { dataTimeAt, faultsOn, siteDaylight, WORLD_SITES } from "../../sandbox/simulation";
import { solisPlants } from "../../sandbox/solis";
import { PROVIDER_CALL_TIMEOUT_MS } from "../../worker/providers/call-limits";
import { SOLIS_MAX_PAGES } from "../../worker/providers/solis/paging";
import { solisSignedHeaders } from "../../worker/providers/solis/signature";

/**
 * The SolisCloud emulator's fleet-scale accounts (2,000 and 20,000 stations over 14 zones) answer
 * a page without building the account: a page of the 20,000-station account answers within the
 * app's vendor-call timeout on a fresh emulator, and the per-state counts every list carries agree
 * with the records its pages hold.
 */

type Account = (typeof sandboxAccounts.solis)[number];
const fleet = sandboxAccounts.solis[2];
const world = sandboxAccounts.solis[3];
// 11:22:30 in Amsterdam, Munich, Milan and Madrid: plants there with a fault that day are in it.
const FAULT_HOUR = Date.UTC(2024, 5, 20, 9, 22, 30);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Page<T> {
  records: T[];
  total: number;
  pages: number;
}
interface ListData<T> {
  page?: Page<T>;
  stationStatusVo?: Record<string, number>;
  inverterStatusVo?: Record<string, number>;
}

function emulator(now: number) {
  // The per-second limit sees a second pass between calls: the test never waits.
  let limitClockMs = 0;
  const sandbox = createSandbox({ now: () => now, clock: () => (limitClockMs += 1000) });
  return async function call<T>(account: Account, endpoint: string, body: object) {
    const text = JSON.stringify(body);
    const headers = await solisSignedHeaders({
      keyId: account.keyId,
      keySecret: account.keySecret,
      body: text,
      date: new Date(now).toUTCString(),
      path: `/v1/api/${endpoint}`,
    });
    const started = performance.now();
    const response = await sandbox.fetch(
      new Request(`http://sandbox.test/solis/v1/api/${endpoint}`, { method: "POST", headers, body: text }),
    );
    const json = (await response.json()) as { code: string; data: T };
    expect(json.code, `${endpoint} ${text}`).toBe("0");
    return { data: json.data, ms: performance.now() - started };
  };
}

/** Every page of a list, 100 records a call. */
async function allPages<T>(
  call: ReturnType<typeof emulator>,
  account: Account,
  endpoint: string,
  body: object = {},
): Promise<{ first: ListData<T>; records: T[] }> {
  const records: T[] = [];
  let first: ListData<T> | undefined;
  for (let pageNo = 1; ; pageNo++) {
    const { data } = await call<ListData<T> & Page<T>>(account, endpoint, { ...body, pageNo, pageSize: 100 });
    first ??= data;
    const page = data.page ?? data;
    records.push(...page.records);
    if (pageNo >= page.pages) return { first, records };
  }
}

const countStates = (records: { state: number }[]) => ({
  all: records.length,
  normal: records.filter((record) => record.state === 1).length,
  fault: records.filter((record) => record.state === 3).length,
  offline: records.filter((record) => record.state === 2).length,
});

describe("the SolisCloud sandbox's 20,000-station account", { timeout: 120_000 }, () => {
  it("answers its first and later pages within the app's call timeout, each page the account's own", async () => {
    const at = dataTimeAt(FAULT_HOUR);
    const call = emulator(FAULT_HOUR);
    const plants = solisPlants(world);
    const inverters = plants.flatMap((plant) => plant.inverters.map((inverter) => ({ plant, inverter })));
    const alarmDates = {
      alarmBeginTime: isoDate(at - 2 * 86_400_000),
      alarmEndTime: isoDate(at + 86_400_000),
    };

    const stations = await call<ListData<{ id: string; name: string }>>(world, "userStationList", {
      pageNo: 1,
      pageSize: 100,
    });
    const later = await call<ListData<{ id: string }>>(world, "userStationList", {
      pageNo: 157,
      pageSize: 100,
    });
    const inverterPage = await call<Page<{ sn: string; stationId: string }>>(world, "inverterDetailList", {
      pageNo: 1,
      pageSize: 100,
    });
    const lastInverters = await call<Page<{ sn: string; stationId: string }>>(world, "inverterDetailList", {
      pageNo: Math.ceil(inverters.length / 100),
      pageSize: 100,
    });
    const alarms = await call<Page<{ alarmBeginTime: number }>>(world, "alarmList", {
      ...alarmDates,
      pageNo: 1,
      pageSize: 100,
    });
    for (const answer of [stations, later, inverterPage, lastInverters, alarms]) {
      expect(answer.ms).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS);
    }

    expect(stations.data.page?.total).toBe(20_000);
    expect(stations.data.stationStatusVo?.all).toBe(20_000);
    expect(stations.data.page?.records.map((record) => record.id)).toEqual(
      plants.slice(0, 100).map((plant) => plant.id),
    );
    expect(later.data.page?.records.map((record) => record.id)).toEqual(
      plants.slice(15_600, 15_700).map((plant) => plant.id),
    );
    expect(inverterPage.data.total).toBe(inverters.length);
    // The adapter's page cap (it stops a vendor that keeps claiming more pages) holds this
    // account's longest list four times over.
    expect(inverterPage.data.pages * 4).toBeLessThan(SOLIS_MAX_PAGES);
    expect(lastInverters.data.records.map((record) => [record.stationId, record.sn])).toEqual(
      inverters
        .slice(Math.floor((inverters.length - 1) / 100) * 100)
        .map(({ plant, inverter }) => [plant.id, inverter.serial]),
    );
    // About a quarter of the plants have a fault on a day: thousands over the days asked.
    expect(alarms.data.total).toBeGreaterThan(10_000);
    expect(alarms.data.records).toHaveLength(100);
    const begins = alarms.data.records.map((alarm) => alarm.alarmBeginTime);
    expect(begins).toEqual([...begins].sort((a, b) => b - a));
    expect(new Set(WORLD_SITES.map((site) => site.timezone)).size).toBe(14);
    expect(new Set(plants.map((plant) => plant.timezone)).size).toBe(14);
    expect(plants.filter((plant) => plant.silentSinceYesterday).map((plant) => plant.city)).toEqual([
      "Brisbane",
    ]);
  });
});

describe("the SolisCloud sandbox's 2,000-station account", { timeout: 120_000 }, () => {
  const plants = solisPlants(fleet);

  /** A data time at which the sun stands at the light threshold at one of the account's sites. */
  function atDusk(): number {
    const day = Date.UTC(2024, 5, 21);
    for (let at = day; at < day + 86_400_000; at += 5 * 60_000) {
      if (WORLD_SITES.some((site) => siteDaylight(site, at) === null)) return at;
    }
    throw new Error("no site at dusk");
  }

  it("reports stations and inverters per state as its pages hold them: faults, the silent plant, dusk", async () => {
    // Faults under way in Europe; the sun at the threshold somewhere; night in Europe.
    for (const now of [FAULT_HOUR, atDusk(), Date.UTC(2024, 11, 21, 1, 0)]) {
      const call = emulator(now);
      const stations = await allPages<{ id: string; state: number }>(call, fleet, "userStationList");
      expect(stations.records.map((record) => record.id)).toEqual(plants.map((plant) => plant.id));
      expect(stations.first.stationStatusVo).toMatchObject(countStates(stations.records));
      const inverters = await allPages<{ state: number }>(call, fleet, "inverterList");
      expect(inverters.first.inverterStatusVo).toMatchObject(countStates(inverters.records));
      const silent = plants.findIndex((plant) => plant.silentSinceYesterday);
      expect(stations.records[silent]?.state).toBe(2);
      if (now === FAULT_HOUR) expect(stations.first.stationStatusVo?.fault).toBeGreaterThan(0);
    }
  });

  it("lists its alarms newest first, one for each fault the simulation has begun on the days asked", async () => {
    const now = FAULT_HOUR;
    const at = dataTimeAt(now);
    const from = isoDate(at - 2 * 86_400_000);
    const to = isoDate(at + 86_400_000);
    const { records } = await allPages<{ stationId: string; alarmBeginTime: number; alarmDeviceSn: string }>(
      emulator(now),
      fleet,
      "alarmList",
      { alarmBeginTime: from, alarmEndTime: to },
    );
    const expected = plants.flatMap((plant) => {
      const days = [];
      const today = DateTime.fromMillis(at, { zone: plant.timezone });
      for (
        let day = DateTime.fromISO(from, { zone: plant.timezone });
        day <= today;
        day = day.plus({ days: 1 })
      ) {
        days.push(day.toISODate() ?? "");
      }
      return days.flatMap((day) =>
        faultsOn(plant, day)
          .filter((fault) => fault.startsAt <= at)
          .map((fault) => ({
            stationId: plant.id,
            alarmBeginTime: fault.startsAt,
            alarmDeviceSn: plant.inverters[fault.inverterIndex]?.serial,
          })),
      );
    });
    // Newest first; within one moment, in the account's order.
    expected.sort((a, b) => b.alarmBeginTime - a.alarmBeginTime);
    expect(expected.length).toBeGreaterThan(1000);
    expect(
      records.map(({ stationId, alarmBeginTime, alarmDeviceSn }) => ({
        stationId,
        alarmBeginTime,
        alarmDeviceSn,
      })),
    ).toEqual(expected);
  });
});
