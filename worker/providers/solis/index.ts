import type { NormalisedInverter, ProviderAdapter } from "../types";
import { SolisClient, solisUrlProblem } from "./client";
import { type SolisCredentials, solisCredentialsSchema, solisFields } from "./credentials";
import { fetchSolisHistory } from "./history";
import { normaliseAlarm, normaliseInverter, normaliseSystem } from "./normalise";
import { alarmSchema, inverterSchema, stationSchema } from "./schemas";

const DAY_MS = 86_400_000;
/**
 * alarmList filters by calendar date in a zone the doc does not name: asking from two days back
 * to tomorrow (UTC) covers today and yesterday in every zone at one or two pages per sync.
 */
const ALARM_DAYS_BACK = 2;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const solisAdapter: ProviderAdapter<SolisCredentials> = {
  id: "solis",
  displayName: "SolisCloud",
  description:
    "Solis inverters through the SolisCloud Platform API (KeyId and KeySecret from API management).",
  ingestion: "api",
  fields: solisFields,
  credentialsSchema: solisCredentialsSchema,
  // "2 times/sec" per interface (API doc V2), each endpoint on its own: one call per endpoint every
  // 550 ms (10 % under the limit), never two back to back, so no second holds three calls.
  callPlan: (credentials) => ({
    key: credentials.keyId,
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

  async fetchSnapshot(ctx, credentials) {
    const client = new SolisClient(ctx, credentials);
    const now = ctx.now();
    // Three batch lists, 100 records per call, instead of a detail call per station or inverter.
    // Each endpoint has its own limit, so the three are read side by side.
    const [stations, inverters, alarms] = await Promise.all([
      client.all("userStationList", {}, stationSchema),
      client.all("inverterDetailList", {}, inverterSchema),
      client.all(
        "alarmList",
        { alarmBeginTime: isoDate(now - ALARM_DAYS_BACK * DAY_MS), alarmEndTime: isoDate(now + DAY_MS) },
        alarmSchema,
      ),
    ]);

    const invertersByStation = new Map<string, NormalisedInverter[]>();
    for (const inverter of inverters) {
      const list = invertersByStation.get(inverter.stationId) ?? [];
      list.push(normaliseInverter(inverter));
      invertersByStation.set(inverter.stationId, list);
    }
    return {
      systems: stations.map((station) => normaliseSystem(station, invertersByStation.get(station.id) ?? [])),
      alarms: alarms.map((alarm) => normaliseAlarm(alarm, now)),
    };
  },

  fetchHistory: (ctx, credentials, request) =>
    fetchSolisHistory(ctx, new SolisClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};
