import { Hono } from "hono";
import { DateTime } from "luxon";
import { solisAuthorization, solisContentMd5 } from "../worker/providers/solis/signature";
import { sandboxAccounts } from "./accounts";
import { requestedFault, type SandboxFaults, vendorFaults } from "./faults";
import { hash } from "./hash";
import {
  dataTimeAt,
  faultsOn,
  inverterEnergyTodayWh,
  inverterEnergyTotalWh,
  inverterPowerW,
  inverterState,
  inverterTemperatureC,
  type SimPlant,
  type SimState,
} from "./simulation";
import { alarmDays, type SolisAccountSpec, SolisFleet, type StateCounts } from "./solis-fleet";

/**
 * Emulator of the SolisCloud Platform API: POST-only /v1/api/* with the HMAC-SHA1
 * signature checked (Content-MD5 against the body bytes, Date within 15 minutes), the "code"
 * envelope, 2 calls per second per key and endpoint, and values in the vendor's mixed units
 * (kWp, kW, kWh, MWh, GWh) picked by magnitude, so the adapter's unit handling is exercised.
 */

type SolisAccount = (typeof sandboxAccounts.solis)[number];

/**
 * An account's stations, all of them: the fleet-scale accounts' spread over the world's zones, with
 * a plant whose logger went quiet (the first in Brisbane, silent since yesterday afternoon). The
 * emulator itself builds only the stations a call asks for (SolisFleet).
 */
export function solisPlants(account: SolisAccountSpec): SimPlant[] {
  const fleet = new SolisFleet(account);
  return Array.from({ length: fleet.size }, (_, index) => fleet.plant(index));
}

type Body = Record<string, unknown>;

export interface SolisSandboxOptions {
  now: () => number;
  /**
   * The clock the per-second call limit is measured with: real elapsed time, not the simulated
   * `now` (which tests hold still). Tests with fake sleeps hand in a clock that follows them.
   */
  clock?: () => number;
  faults?: SandboxFaults;
}

/** The per-second refusal: "R0000" inside an HTTP 200 answer, success true. */
const PER_SECOND_LIMIT = "No authority too many request 2 times in 1SECONDS";

const DATE_TOLERANCE_MS = 15 * 60_000;
const CALLS_PER_SECOND = 2;
/** Network jitter: a client spacing its calls 500 ms apart must not be refused for a few ms. */
const LIMIT_JITTER_MS = 50;
const PAGE_SIZE_DEFAULT = 20;
const PAGE_SIZE_MAX = 100;

const ok = (data: unknown) => ({ success: true, code: "0", msg: "success", data });
const failure = (code: string, msg: string) => ({ success: true, code, msg, data: null });
const NO_AUTHORITY = { success: false, code: "R0000", msg: "No authority", data: null };

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** Energy in the unit SolisCloud would pick for its size. */
function energyValue(wh: number): { value: number; unit: string } {
  if (wh >= 1e9) return { value: round3(wh / 1e9), unit: "GWh" };
  if (wh >= 1e6) return { value: round3(wh / 1e6), unit: "MWh" };
  return { value: round3(wh / 1e3), unit: "kWh" };
}

function powerValue(w: number): { value: number; unit: string } {
  return w >= 1e6 ? { value: round3(w / 1e6), unit: "MW" } : { value: round3(w / 1e3), unit: "kW" };
}

const STATE_CODES: Record<SimState, number> = { online: 1, offline: 2, fault: 3 };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

function integer(value: unknown, fallback: number): number {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) ? number : fallback;
}

function text(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return typeof value === "number" ? String(value) : null;
}

/**
 * `data.page` for most lists; alarmList and inverterDetailList put the page fields in `data`.
 * Only the page's records are built: `slice(start, end)` answers positions [start, end) of a list
 * of `total` records.
 */
function paged<T>(total: number, body: Body, partial: boolean, slice: (start: number, end: number) => T[]) {
  const size = Math.min(PAGE_SIZE_MAX, Math.max(1, integer(body.pageSize, PAGE_SIZE_DEFAULT)));
  const current = Math.max(1, integer(body.pageNo, 1));
  const start = (current - 1) * size;
  const records = start < total ? slice(start, Math.min(total, current * size)) : [];
  return {
    // A partial answer: half the page is missing while the totals still count it.
    records: partial ? records.slice(0, Math.floor(records.length / 2)) : records,
    total,
    size,
    current,
    orders: [],
    optimizeCountSql: true,
    searchCount: true,
    pages: Math.ceil(total / size),
  };
}

/** A page of a list that is small enough to build whole (one station's, or a few stations'). */
const pagedList = <T>(all: T[], body: Body, partial: boolean) =>
  paged(all.length, body, partial, (start, end) => all.slice(start, end));

const statusCounts = (counts: StateCounts) => ({
  all: counts.normal + counts.offline + counts.fault,
  normal: counts.normal,
  fault: counts.fault,
  offline: counts.offline,
});

interface InverterValues {
  powerW: number;
  energyTodayWh: number;
  energyTotalWh: number;
  temperatureC: number;
  state: SimState;
}

export function solisSandbox(options: SolisSandboxOptions) {
  const now = options.now;
  const clock = options.clock ?? (() => Date.now());
  const app = new Hono();
  const fleets = new Map<string, SolisFleet>();
  const recentCalls = new Map<string, number[]>();
  // Inverter values per data time (the newest 5-minute bucket, and the silent plant's last one):
  // a station page and the inverter pages after it ask for the same inverters. Answers are pure
  // functions of the account and the time, and each page builds only its own records (SolisFleet).
  const valuesAt = new Map<number, Map<string, InverterValues>>();

  const fleetOf = (account: SolisAccount) => {
    let fleet = fleets.get(account.keyId);
    if (!fleet) {
      fleet = new SolisFleet(account);
      fleets.set(account.keyId, fleet);
    }
    return fleet;
  };

  function inverterValues(plant: SimPlant, index: number, at: number): InverterValues {
    let cache = valuesAt.get(at);
    if (!cache) {
      cache = new Map();
      // The newest few times: the current bucket, the one before it, the silent plant's.
      if (valuesAt.size >= 4) valuesAt.delete(valuesAt.keys().next().value ?? at);
      valuesAt.set(at, cache);
    }
    const key = `${plant.id}:${index}`;
    let values = cache.get(key);
    if (!values) {
      const energyTodayWh = inverterEnergyTodayWh(plant, index, at);
      // The total at local midnight plus today's: integrating today once, not twice, halves the cost.
      const midnight = DateTime.fromMillis(at, { zone: plant.timezone }).startOf("day").toMillis();
      values = {
        powerW: inverterPowerW(plant, index, at),
        energyTodayWh,
        energyTotalWh: inverterEnergyTotalWh(plant, index, midnight) + energyTodayWh,
        temperatureC: inverterTemperatureC(plant, index, at),
        state: inverterState(plant, index, at),
      };
      cache.set(key, values);
    }
    return values;
  }

  function plantValues(plant: SimPlant, at: number) {
    const inverters = plant.inverters.map((_, index) => inverterValues(plant, index, at));
    const states = inverters.map((values) => values.state);
    const state: SimState = states.includes("fault")
      ? "fault"
      : states.includes("online")
        ? "online"
        : "offline";
    return {
      powerW: inverters.reduce((sum, values) => sum + values.powerW, 0),
      energyTodayWh: inverters.reduce((sum, values) => sum + values.energyTodayWh, 0),
      energyTotalWh: inverters.reduce((sum, values) => sum + values.energyTotalWh, 0),
      state,
    };
  }

  const local = (plant: SimPlant, at: number) => DateTime.fromMillis(at, { zone: plant.timezone });

  /**
   * The newest time the vendor has data of the plant for: now, or for a plant gone silent (its
   * logger lost its connection yesterday at 14:00 local) that moment, which every list and curve
   * then repeats, with the plant and its inverters reported offline.
   */
  const seenAt = (plant: SimPlant, now: number) => {
    if (!plant.silentSinceYesterday) return now;
    return Math.min(now, local(plant, now).startOf("day").minus({ days: 1 }).plus({ hours: 14 }).toMillis());
  };
  const silentValues = (values: InverterValues, silent: boolean): InverterValues =>
    silent ? { ...values, state: "offline" } : values;
  const offsetLabel = (zoned: DateTime) => `UTC${zoned.toFormat("ZZ")}`;

  function station(plant: SimPlant, now: number) {
    const at = seenAt(plant, now);
    const values = plantValues(plant, at);
    const zoned = local(plant, at);
    const power = powerValue(values.powerW);
    const dayEnergy = energyValue(values.energyTodayWh);
    const allEnergy = energyValue(values.energyTotalWh);
    const ratedW = plant.inverters.reduce((sum, inverter) => sum + inverter.ratedPowerW, 0);
    return {
      id: plant.id,
      stationName: plant.name,
      addr: `${plant.street}, ${plant.city}, ${plant.country}`,
      userId: `${1_298_491_919_448_600_000n + BigInt(hash(plant.id) % 100_000)}`,
      sno: (hash(`${plant.id}:sno`) % 0xffffff).toString(16).toUpperCase().padStart(6, "0"),
      capacity: plant.capacityW / 1000,
      capacityStr: "kWp",
      power: power.value,
      powerStr: power.unit,
      dayEnergy: dayEnergy.value,
      dayEnergyStr: dayEnergy.unit,
      allEnergy: allEnergy.value,
      allEnergyStr: allEnergy.unit,
      allEnergy1: round3(values.energyTotalWh / 1000),
      fullHour: round3(values.energyTodayWh / plant.capacityW),
      timeZone: zoned.offset / 60,
      timeZoneStr: `(${offsetLabel(zoned)})`,
      daylight: zoned.isInDST ? 1 : 0,
      money: plant.country === "US" ? "USD" : plant.country === "AU" ? "AUD" : "EUR",
      latitude: String(plant.latitude),
      longitude: String(plant.longitude),
      cityStr: plant.city,
      countryStr: plant.country,
      synchronizationType: 0,
      stationTypeNew: 0,
      state: STATE_CODES[at < now ? "offline" : values.state],
      dataTimestamp: String(at),
      inverterCount: plant.inverters.length,
      inverterPower: (ratedW / 1000).toFixed(3),
      nmiCode: "",
      createDate: 1_656_662_400_000,
    };
  }

  function inverterRecords(plants: SimPlant[]) {
    return plants.flatMap((plant) => plant.inverters.map((_, index) => ({ plant, index })));
  }

  /** The plants a station id names, in account order (one, as ids are unique in the sandbox). */
  const plantsNamed = (fleet: SolisFleet, stationId: string) =>
    fleet.indicesOf(stationId).map((index) => fleet.plant(index));

  function collector(plant: SimPlant, index: number) {
    const inverter = plant.inverters[index];
    return {
      collectorId: `${BigInt(inverter?.id ?? plant.id) + 7_000_000n}`,
      collectorSn: String(4e8 + (hash(`${inverter?.serial}:collector`) % 1e8)),
    };
  }

  function inverterDetail(plant: SimPlant, index: number, now: number) {
    const inverter = plant.inverters[index];
    if (!inverter) return null;
    const at = seenAt(plant, now);
    const values = silentValues(inverterValues(plant, index, at), at < now);
    const pac = powerValue(values.powerW);
    const eToday = energyValue(values.energyTodayWh);
    const eTotal = energyValue(values.energyTotalWh);
    const currentA = round3(values.powerW / 230);
    return {
      id: inverter.id,
      sn: inverter.serial,
      stationId: plant.id,
      stationName: plant.name,
      ...collector(plant, index),
      model: inverter.model,
      type: 1,
      state: STATE_CODES[values.state],
      currentState: values.state === "fault" ? "4" : values.state === "online" ? "3" : "2",
      stateExceptionFlag: values.state === "fault" ? 1 : 0,
      dataTimestamp: String(at),
      acOutputType: 0,
      dcInputType: 1,
      power: inverter.ratedPowerW / 1000,
      powerStr: "kW",
      pac: pac.value,
      pacStr: pac.unit,
      pacPec: "1",
      eToday: eToday.value,
      eTodayStr: eToday.unit,
      eTotal: eTotal.value,
      eTotalStr: eTotal.unit,
      fac: values.powerW > 0 ? 50.01 : 0,
      facStr: "Hz",
      uAc1: values.powerW > 0 ? 231.4 : 0,
      uAc1Str: "V",
      iAc1: currentA,
      iAc1Str: "A",
      inverterTemperature: values.temperatureC,
      powerFactor: 1.0,
      fullHour: round3(values.energyTodayWh / inverter.ratedPowerW),
      fullHourStr: "h",
      warningInfoData: values.state === "fault" ? 1 : 0,
    };
  }

  function inverterListRecord(plant: SimPlant, index: number, now: number) {
    const inverter = plant.inverters[index];
    if (!inverter) return null;
    const at = seenAt(plant, now);
    const values = silentValues(inverterValues(plant, index, at), at < now);
    const zoned = local(plant, at);
    const pac = powerValue(values.powerW);
    const etoday = energyValue(values.energyTodayWh);
    const etotal = energyValue(values.energyTotalWh);
    return {
      id: inverter.id,
      sn: inverter.serial,
      ...collector(plant, index),
      stationId: plant.id,
      stationName: plant.name,
      productModel: inverter.model,
      dcInputType: 1,
      acOutputType: 0,
      power: inverter.ratedPowerW / 1000,
      powerStr: "kW",
      pac: pac.value,
      pacStr: pac.unit,
      state: STATE_CODES[values.state],
      stateExceptionFlag: values.state === "fault" ? 1 : 0,
      fullHour: round3(values.energyTodayWh / inverter.ratedPowerW),
      timeZone: zoned.offset / 60,
      timeZoneStr: offsetLabel(zoned),
      dataTimestamp: String(at),
      dataTimestampStr: `${zoned.toFormat("yyyy-MM-dd HH:mm:ss")} (${offsetLabel(zoned)})`,
      etoday: etoday.value,
      etoday1: round3(values.energyTodayWh / 1000),
      etodayStr: etoday.unit,
      etotal: etotal.value,
      etotal1: round3(values.energyTotalWh / 1000),
      etotalStr: etotal.unit,
    };
  }

  /** The vendor's alarm record of a plant's fault, as of `at`. */
  function alarmRecord(plant: SimPlant, fault: ReturnType<typeof faultsOn>[number], at: number) {
    const inverter = plant.inverters[fault.inverterIndex];
    if (!inverter || fault.startsAt > at) return null;
    const restored = at >= fault.endsAt;
    return {
      id: String(hash(`${plant.id}:${fault.startsAt}:${fault.code}`)),
      stationId: plant.id,
      stationName: plant.name,
      alarmDeviceSn: inverter.serial,
      alarmDeviceType: "3",
      alarmType: 0,
      alarmLevel: "3",
      alarmCode: fault.code,
      alarmBeginTime: fault.startsAt,
      alarmEndTime: restored ? fault.endsAt : null,
      alarmLong: String((restored ? fault.endsAt : at) - fault.startsAt),
      state: restored ? "2" : "0",
      advice: "Check the grid voltage at the connection point; the inverter reconnects by itself.",
      alarmMsg: fault.message,
      model: inverter.model,
      warningInfoData: 0,
      type: 0,
    };
  }

  type AlarmRecord = NonNullable<ReturnType<typeof alarmRecord>>;
  const isAlarm = (record: AlarmRecord | null): record is AlarmRecord => record !== null;

  /**
   * Alarms of a few plants from the simulation's faults whose plant-local day lies in [from, to]
   * and has begun, newest first (a whole account's are paged by SolisFleet.alarmIndex instead).
   */
  function alarms(plants: SimPlant[], from: string, to: string, at: number) {
    const daysByZone = new Map<string, string[]>();
    const daysIn = (zone: string) => {
      let days = daysByZone.get(zone);
      if (!days) {
        days = alarmDays(zone, from, to, at);
        daysByZone.set(zone, days);
      }
      return days;
    };
    const records = plants.flatMap((plant) =>
      daysIn(plant.timezone).flatMap((isoDay) =>
        faultsOn(plant, isoDay)
          .map((fault) => alarmRecord(plant, fault, at))
          .filter(isAlarm),
      ),
    );
    return records.sort((a, b) => b.alarmBeginTime - a.alarmBeginTime);
  }

  /** Energy of one plant-local day, as of `at` (the whole day when it is over). */
  function dayEnergyWh(plant: SimPlant, isoDate: string, now: number): number {
    const at = seenAt(plant, now);
    const start = DateTime.fromISO(isoDate, { zone: plant.timezone }).startOf("day");
    if (!start.isValid || start.toMillis() > at) return 0;
    const end = dataTimeAt(Math.min(at, start.plus({ days: 1 }).toMillis() - 1));
    return plant.inverters.reduce((sum, _, index) => sum + inverterEnergyTodayWh(plant, index, end), 0);
  }

  /**
   * A station's day curve (`stationDay`): every 5-minute bucket of the plant-local day up to `at`,
   * from the same simulation the live lists answer with, so a backfilled point equals the live
   * value stored at that time. Power is raw with its multiplier (powerPec), as the vendor sends it.
   */
  function stationDay(plant: SimPlant, isoDate: string, now: number) {
    const start = DateTime.fromISO(isoDate, { zone: plant.timezone }).startOf("day");
    if (!start.isValid) return [];
    const end = Math.min(start.plus({ days: 1 }).toMillis(), seenAt(plant, now) + 1);
    const rows = [];
    for (let t = start.toMillis(); t < end; t += 5 * 60_000) {
      const powerW = plant.inverters.reduce((sum, _, index) => sum + inverterPowerW(plant, index, t), 0);
      const energyWh = plant.inverters.reduce(
        (sum, _, index) => sum + inverterEnergyTodayWh(plant, index, t),
        0,
      );
      const zoned = local(plant, t);
      rows.push({
        time: String(t),
        timeStr: zoned.toFormat("HH:mm:ss"),
        power: powerW,
        powerStr: "kW",
        powerPec: "0.001",
        produceEnergy: round3(energyWh / 1000),
        produceEnergyStr: "kWh",
        timeZone: zoned.offset / 60,
      });
    }
    return rows;
  }

  type Handler = (input: { fleet: SolisFleet; body: Body; at: number; partial: boolean }) => object;
  const missing = () => failure("I0000", "Necessary parameters empty");

  /** The stations a station list names, in account order, each once. */
  function stationsNamed(fleet: SolisFleet, ids: string[]): SimPlant[] {
    const indices = [...new Set(ids.flatMap((id) => fleet.indicesOf(id)))].sort((a, b) => a - b);
    return indices.map((index) => fleet.plant(index));
  }

  const handlers: Record<string, Handler> = {
    userStationList: ({ fleet, body, at, partial }) =>
      ok({
        stationStatusVo: { ...statusCounts(fleet.stateCounts(at).stations), building: 0, mppt: 0 },
        page: paged(fleet.size, body, partial, (start, end) =>
          Array.from({ length: end - start }, (_, offset) => station(fleet.plant(start + offset), at)),
        ),
        mpptSwitch: 0,
      }),

    stationDetail: ({ fleet, body, at, partial }) => {
      const id = text(body.id);
      if (!id) return missing();
      const [plant] = plantsNamed(fleet, id);
      if (!plant) return NO_AUTHORITY;
      const record = station(plant, at);
      return ok(partial ? { id: record.id, stationName: record.stationName } : record);
    },

    inverterList: ({ fleet, body, at, partial }) => {
      const stationId = text(body.stationId);
      if (stationId) {
        const records = inverterRecords(plantsNamed(fleet, stationId)).map(({ plant, index }) =>
          inverterListRecord(plant, index, at),
        );
        const count = (state: number) => records.filter((record) => record?.state === state).length;
        return ok({
          inverterStatusVo: {
            all: records.length,
            normal: count(1),
            fault: count(3),
            offline: count(2),
            mppt: 0,
          },
          page: pagedList(records, body, partial),
          mpptSwitch: 0,
        });
      }
      return ok({
        inverterStatusVo: { ...statusCounts(fleet.stateCounts(at).inverters), mppt: 0 },
        page: paged(fleet.inverterTotal, body, partial, (start, end) =>
          fleet.inverterRange(start, end).map(({ plant, index }) => inverterListRecord(plant, index, at)),
        ),
        mpptSwitch: 0,
      });
    },

    inverterDetail: ({ fleet, body, at, partial }) => {
      const id = text(body.id);
      const sn = text(body.sn);
      if (!id && !sn) return missing();
      const found = fleet.findInverter(id, sn);
      if (!found) return NO_AUTHORITY;
      const record = inverterDetail(found.plant, found.index, at);
      return ok(partial && record ? { id: record.id, sn: record.sn, stationId: record.stationId } : record);
    },

    inverterDetailList: ({ fleet, body, at, partial }) =>
      ok(
        paged(fleet.inverterTotal, body, partial, (start, end) =>
          fleet.inverterRange(start, end).map(({ plant, index }) => inverterDetail(plant, index, at)),
        ),
      ),

    stationDay: ({ fleet, body, at }) => {
      const id = text(body.id);
      const time = text(body.time);
      if (!id || !time || !/^\d{4}-\d{2}-\d{2}$/.test(time)) return missing();
      const [plant] = plantsNamed(fleet, id);
      if (!plant) return NO_AUTHORITY;
      return ok(stationDay(plant, time, at));
    },

    stationDayEnergyList: ({ fleet, body, at, partial }) => {
      const time = text(body.time);
      if (!time || !/^\d{4}-\d{2}-\d{2}$/.test(time)) return missing();
      const record = (plant: SimPlant) => {
        const energy = energyValue(dayEnergyWh(plant, time, at));
        return {
          id: plant.id,
          energy: energy.value,
          energyStr: energy.unit,
          date: DateTime.fromISO(time, { zone: plant.timezone }).toMillis(),
          dateStr: time,
          money: plant.country === "US" ? "USD" : plant.country === "AU" ? "AUD" : "EUR",
        };
      };
      const ids = text(body.stationIds)?.split(",");
      if (ids) return ok({ page: pagedList(stationsNamed(fleet, ids).map(record), body, partial) });
      return ok({
        page: paged(fleet.size, body, partial, (start, end) =>
          Array.from({ length: end - start }, (_, offset) => record(fleet.plant(start + offset))),
        ),
      });
    },

    alarmList: ({ fleet, body, at, partial }) => {
      const stationId = text(body.stationId);
      const deviceSn = text(body.alarmDeviceSn);
      const from =
        text(body.alarmBeginTime) ??
        DateTime.fromMillis(at - 30 * 86_400_000, { zone: "utc" }).toISODate() ??
        "";
      const to = text(body.alarmEndTime) ?? "9999-12-31";
      if (stationId || deviceSn) {
        // A station's or a device's alarms: a few plants, built whole.
        const named = stationId ? plantsNamed(fleet, stationId) : null;
        const withSerial = deviceSn
          ? fleet.plantsWithSerial(deviceSn).map((index) => fleet.plant(index))
          : null;
        const plants =
          named && withSerial
            ? named.filter((plant) => withSerial.includes(plant))
            : (named ?? withSerial ?? []);
        const records = alarms(plants, from, to, at).filter(
          (alarm) => !deviceSn || alarm.alarmDeviceSn === deviceSn,
        );
        return ok(pagedList(records, body, partial));
      }
      const index = fleet.alarmIndex(from, to, at);
      return ok(
        paged(index.total, body, partial, (start, end) =>
          fleet
            .alarmRange(index, start, end)
            .flatMap(({ plant, localDate }) =>
              faultsOn(plant, localDate).map((fault) => alarmRecord(plant, fault, at)),
            )
            .filter(isAlarm),
        ),
      );
    },
  };

  /** Real elapsed time decides the per-second limit; rejected calls are not counted. */
  function overLimit(keyId: string, endpoint: string, at: number): boolean {
    const key = `${keyId}:${endpoint}`;
    const recent = (recentCalls.get(key) ?? []).filter((time) => at - time < 1000 - LIMIT_JITTER_MS);
    if (recent.length >= CALLS_PER_SECOND) {
      recentCalls.set(key, recent);
      return true;
    }
    recent.push(at);
    recentCalls.set(key, recent);
    return false;
  }

  // Standing faults: a rejected key is SolisCloud's HTTP 403 "No authority".
  app.use("*", vendorFaults(options.faults, "solis", { refused: (c) => c.json(NO_AUTHORITY, 403) }));

  app.post("/v1/api/:endpoint", async (c) => {
    const receivedAt = clock();
    const endpoint = c.req.param("endpoint");
    const fault = requestedFault(c);
    if (fault === "500") return c.text("<html><body><h1>502 Bad Gateway</h1></body></html>", 502);
    if (fault === "429") return c.json(failure("R0000", "No authority too many request 200 times in 1DAYS"));
    if (fault === "timeout") {
      await sleep(11_000, c.req.raw.signal);
      return c.text("<html><body><h1>504 Gateway Time-out</h1></body></html>", 504);
    }
    if (fault === "malformed") {
      return c.body('{"success":true,"code":"0","msg":"success","data":{"page":{"records":[{"id":"12', 200, {
        "Content-Type": "application/json;charset=UTF-8",
      });
    }

    // The signature: "API <keyId>:<base64 HMAC-SHA1>" over the body's MD5, type, date and path.
    const body = await c.req.text();
    const authorization = c.req.header("Authorization") ?? "";
    const match = /^API (\S+):(\S+)$/.exec(authorization);
    const account = sandboxAccounts.solis.find((candidate) => candidate.keyId === match?.[1]);
    const contentMd5 = c.req.header("Content-MD5") ?? "";
    const date = c.req.header("Date") ?? "";
    if (!account || contentMd5 !== solisContentMd5(body)) return c.json(NO_AUTHORITY, 403);
    const expected = await solisAuthorization({
      keyId: account.keyId,
      keySecret: account.keySecret,
      body,
      date,
      path: `/v1/api/${endpoint}`,
      contentType: c.req.header("Content-Type") ?? "",
    });
    if (authorization !== expected) return c.json(NO_AUTHORITY, 403);
    const sentAt = Date.parse(date);
    if (Number.isNaN(sentAt) || Math.abs(sentAt - now()) > DATE_TOLERANCE_MS) {
      return c.json({ success: false, code: "408", msg: "Request time expired", data: null }, 408);
    }

    const handler = handlers[endpoint];
    if (!handler) {
      return c.json({ timestamp: now(), status: 404, error: "Not Found", path: `/v1/api/${endpoint}` }, 404);
    }
    if (options.faults?.take("solis") || overLimit(account.keyId, endpoint, receivedAt)) {
      return c.json(failure("R0000", PER_SECOND_LIMIT));
    }
    let parsed: unknown;
    try {
      parsed = body.trim() === "" ? {} : JSON.parse(body);
    } catch {
      return c.json(missing());
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return c.json(missing());
    const answer = handler({
      fleet: fleetOf(account),
      body: parsed as Body,
      at: dataTimeAt(now()),
      partial: fault === "partial",
    });
    return c.json(answer);
  });

  return app;
}
