import { z } from "zod";
import { providerRegistration } from "../../../schema/provider-registry";
import { ProviderError } from "../errors";
import type { NormalisedInverter, NormalisedSystem, ProviderAdapter } from "../types";
import { checkPage, nextPageNo, SolisClient, solisUrlProblem } from "./client";
import { type SolisCredentials, solisCredentialsSchema, solisFields } from "./credentials";
import { fetchSolisHistory } from "./history";
import { normaliseAlarm, normaliseInverter, normaliseSystem } from "./normalise";
import { SOLIS_PAGE_SIZE } from "./paging";
import { alarmSchema, inverterSchema, stationSchema } from "./schemas";

const DAY_MS = 86_400_000;
/**
 * alarmList filters by calendar date in a zone the doc does not name: asking from two days back
 * to tomorrow (UTC) covers today and yesterday in every zone at one or two pages per sync.
 */
const ALARM_DAYS_BACK = 2;

/** Stations kept waiting for their inverters in the cursor at most (a few pages' worth). */
const MAX_WAITING = 500;

/**
 * An inverter read before its station, kept in the cursor as a tuple (a third of the object's
 * JSON): the inverter list runs up to a page of stations ahead, ~250 inverters.
 */
const earlyInverterSchema = z.tuple([
  z.string(),
  z.string().nullable(),
  z.string().nullable(),
  z.number().nullable(),
  z.custom<NormalisedInverter["state"]>((value) => typeof value === "string"),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().nullable(),
]);
const packInverter = (inv: NormalisedInverter): z.infer<typeof earlyInverterSchema> => [
  inv.providerInverterId,
  inv.serial,
  inv.model,
  inv.ratedPowerW,
  inv.state,
  inv.powerW,
  inv.energyTodayWh,
  inv.energyTotalWh,
  inv.temperatureC,
  inv.dataTime,
];
const unpackInverter = ([
  providerInverterId,
  serial,
  model,
  ratedPowerW,
  state,
  powerW,
  energyTodayWh,
  energyTotalWh,
  temperatureC,
  dataTime,
]: z.infer<typeof earlyInverterSchema>): NormalisedInverter => ({
  providerInverterId,
  serial,
  model,
  ratedPowerW,
  state,
  powerW,
  energyTodayWh,
  energyTotalWh,
  temperatureC,
  dataTime,
});
const page = z.number().int().positive().nullable();
const solisCursorSchema = z.object({
  stationPage: page,
  inverterPage: page,
  alarmPage: page,
  stationPages: z.number().nullable(),
  inverterPages: z.number().nullable(),
  alarmPages: z.number().nullable(),
  /** The alarm list's dates, fixed for the whole run. */
  alarmFrom: z.string(),
  alarmTo: z.string(),
  waiting: z.array(
    z.object({
      system: z.custom<NormalisedSystem>((value) => typeof value === "object" && value !== null),
      expected: z.number().nullable(),
    }),
  ),
  early: z.record(z.string(), z.array(earlyInverterSchema)),
});
type SolisCursor = z.infer<typeof solisCursorSchema>;
const FIRST: Omit<SolisCursor, "alarmFrom" | "alarmTo"> = {
  stationPage: 1,
  inverterPage: 1,
  alarmPage: 1,
  stationPages: null,
  inverterPages: null,
  alarmPages: null,
  waiting: [],
  early: {},
};

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const solisAdapter: ProviderAdapter<SolisCredentials> = {
  id: "solis",
  displayName: providerRegistration("solis").displayName,
  description:
    "Solis inverters through the SolisCloud Platform API (KeyId and KeySecret from API management).",
  ingestion: "api",
  fields: solisFields,
  credentialsSchema: solisCredentialsSchema,
  // "2 times/sec" per interface (API doc V2), each endpoint on its own: one call per endpoint every
  // 550 ms (10 % under the limit), never two back to back, so no second holds three calls.
  callPlan: (credentials) => ({
    key: credentials.keyId,
    secret: credentials.keySecret,
    perEndpoint: true,
    limits: [{ intervalMs: 550, burst: 1 }],
  }),
  outboundProblem: solisUrlProblem,

  async testConnection(ctx, credentials) {
    const page = await new SolisClient(ctx, credentials).page(
      "userStationList",
      { pageNo: 1, pageSize: 1 },
      stationSchema,
    );
    return { sitesFound: page.total ?? page.records.length };
  },

  /**
   * The station, inverter and alarm lists are separate endpoints, each with its own limit, so a
   * unit reads one page of each side by side (100 records per call, instead of a detail call per
   * station or inverter). A station is stored once all its inverters (the station's
   * inverterCount) have been read, whichever page they came on; the cursor carries the stations
   * still waiting and the inverters read before their station. The alarm list is read once every
   * station is stored, a page a unit, each page stored in the unit that read it: each alarm finds
   * its station and the cursor holds none, whatever the fleet's size (the first unit asks for a
   * one-record page only to learn the list's length, for the run's progress). These lists are where SolisCloud's live
   * values are (100 records a call), so steady cycles read them too: there are no per-plant calls
   * to spare.
   */
  async syncPage(ctx, credentials, cursor) {
    const client = new SolisClient(ctx, credentials);
    const now = ctx.now();
    const at: SolisCursor =
      cursor === null
        ? {
            ...FIRST,
            alarmFrom: isoDate(now - ALARM_DAYS_BACK * DAY_MS),
            alarmTo: isoDate(now + DAY_MS),
          }
        : solisCursorSchema.parse(JSON.parse(cursor));
    const waiting = new Map(at.waiting.map((entry) => [entry.system.providerSystemId, entry]));
    const early = new Map(
      Object.entries(at.early).map(([stationId, inverters]) => [stationId, inverters.map(unpackInverter)]),
    );
    // The inverter list runs ahead of the station list: a station page is read once the inverters
    // already read name a page's worth of stations (or the inverter list has ended), so a listed
    // station is usually complete on arrival and reaches the sockets in the unit that read it,
    // instead of waiting ~2.5 inverter pages for its own inverters. Once both lists' lengths are
    // known, the station list never ends after the inverter list.
    const readStations =
      at.stationPage !== null &&
      (at.inverterPage === null ||
        early.size >= SOLIS_PAGE_SIZE ||
        (at.stationPages !== null &&
          pagesLeft(at.stationPage, at.stationPages) >= pagesLeft(at.inverterPage, at.inverterPages)));
    const readAlarms = at.stationPage === null && waiting.size === 0;
    // In a unit that reads a station page, the inverter page beside it does not hold the stations
    // up: refused for the vendor's per-second limit, it is read in the next unit (the budget spaces
    // that call) instead of after the vendor's window in this one.
    const inverterYields = readStations;
    const [stations, inverters, alarms, alarmCount] = await Promise.all([
      readStations && at.stationPage !== null
        ? listPage(client, "userStationList", at.stationPage, {}, stationSchema)
        : null,
      at.inverterPage !== null
        ? listPage(client, "inverterDetailList", at.inverterPage, {}, inverterSchema, {
            retries: inverterYields ? 0 : undefined,
          }).catch((error: unknown) => {
            if (inverterYields && isPerSecondRefusal(error)) return null;
            throw error;
          })
        : null,
      readAlarms && at.alarmPage !== null
        ? listPage(
            client,
            "alarmList",
            at.alarmPage,
            { alarmBeginTime: at.alarmFrom, alarmEndTime: at.alarmTo },
            alarmSchema,
          )
        : null,
      at.alarmPages === null && !readAlarms && at.alarmPage !== null
        ? client.page(
            "alarmList",
            { alarmBeginTime: at.alarmFrom, alarmEndTime: at.alarmTo, pageNo: 1, pageSize: 1 },
            alarmSchema,
          )
        : null,
    ]);
    for (const station of stations?.records ?? []) {
      const system = normaliseSystem(station, early.get(station.id) ?? []);
      early.delete(station.id);
      waiting.set(station.id, { system, expected: station.inverterCount });
    }
    for (const record of inverters?.records ?? []) {
      const inverter = normaliseInverter(record);
      const entry = waiting.get(record.stationId);
      if (entry) entry.system.inverters.push(inverter);
      else early.set(record.stationId, [...(early.get(record.stationId) ?? []), inverter]);
    }
    const next: SolisCursor = {
      ...at,
      stationPage: stations ? nextPageNo(at.stationPage ?? 1, stations) : at.stationPage,
      inverterPage: inverters ? nextPageNo(at.inverterPage ?? 1, inverters) : at.inverterPage,
      alarmPage: alarms ? nextPageNo(at.alarmPage ?? 1, alarms) : at.alarmPage,
      stationPages: stations?.pages ?? at.stationPages,
      inverterPages: inverters?.pages ?? at.inverterPages,
      alarmPages:
        alarms?.pages ??
        (alarmCount?.total != null ? Math.ceil(alarmCount.total / SOLIS_PAGE_SIZE) : at.alarmPages),
    };
    const done = next.stationPage === null && next.inverterPage === null && next.alarmPage === null;
    // Once both lists have ended no inverter is still to come: a station whose inverterCount the
    // inverter list fell short of is stored with those it named (and the alarm list can start).
    const listsEnded = next.stationPage === null && next.inverterPage === null;
    // Stations leave in list order, so a sync stores them as the vendor lists them.
    const ready: NormalisedSystem[] = [];
    for (const [id, entry] of waiting) {
      const complete = entry.expected !== null && entry.system.inverters.length >= entry.expected;
      // Past the cap, stations are stored with the inverters read so far: the cursor stays small.
      if (!complete && !listsEnded && waiting.size <= MAX_WAITING) break;
      ready.push(entry.system);
      waiting.delete(id);
    }
    const pagesRead = (stations ? 1 : 0) + (inverters ? 1 : 0) + (alarms ? 1 : 0);
    // A unit that calls nothing and does not end the run would be repeated for ever.
    if (!done && pagesRead === 0 && alarmCount === null) {
      throw new Error("SolisCloud sync unit made no progress: no list left to read but the run not ended");
    }
    return {
      systems: ready,
      alarms: alarms ? alarms.records.map((alarm) => normaliseAlarm(alarm, now)) : null,
      nextCursor: done
        ? null
        : JSON.stringify({
            ...next,
            waiting: [...waiting.values()],
            early: Object.fromEntries([...early].map(([id, inverters]) => [id, inverters.map(packInverter)])),
          }),
      pagesRead,
      totalPages:
        next.stationPages === null || next.inverterPages === null || next.alarmPages === null
          ? null
          : next.stationPages + next.inverterPages + next.alarmPages,
    };
  },

  fetchHistory: (ctx, credentials, request) =>
    fetchSolisHistory(ctx, new SolisClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};

/** Pages still to read of a list: unknown until its first page named the count. */
const pagesLeft = (page: number | null, pages: number | null) =>
  page === null ? 0 : pages === null ? Number.POSITIVE_INFINITY : pages - page + 1;

/** The longest vendor window a yielding call gives up on (SolisCloud's "2 times in 1SECONDS"). */
const PER_SECOND_WINDOW_MS = 1_000;

/** A refusal for the per-second call limit (a daily limit is not: it ends the run). */
const isPerSecondRefusal = (error: unknown) =>
  error instanceof ProviderError &&
  error.kind === "rate_limited" &&
  (error.retryAfterMs ?? Number.POSITIVE_INFINITY) <= PER_SECOND_WINDOW_MS;

async function listPage<T>(
  client: SolisClient,
  endpoint: string,
  pageNo: number,
  body: Record<string, unknown>,
  schema: z.ZodType<T>,
  options: { retries?: number } = {},
) {
  const page = await client.page(endpoint, { ...body, pageNo, pageSize: SOLIS_PAGE_SIZE }, schema, options);
  checkPage(endpoint, pageNo, page);
  return page;
}
