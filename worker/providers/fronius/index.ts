import { z } from "zod";
import { providerRegistration } from "../../../schema/provider-registry";
import { localDayOf } from "../../lib/energy/local-day";
import { ProviderError } from "../errors";
import type { NormalisedAlarm, NormalisedSystem, ProviderAdapter, SystemState } from "../types";
import { FroniusClient, type FroniusCredentials } from "./client";
import { fetchFroniusHistory } from "./history";
import {
  channel,
  energyWh,
  formatAddress,
  isActiveInverter,
  powerW,
  systemZone,
  toAlarm,
  toInverter,
  utcMillis,
} from "./normalise";
import {
  aggrDataResponseSchema,
  devicesResponseSchema,
  type FroniusPvSystem,
  flowDataResponseSchema,
  messagesResponseSchema,
  pvSystemsListResponseSchema,
} from "./schemas";

const cursorSchema = z.object({ offset: z.number().int().min(0), messages: z.boolean() });

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

const credentialsSchema = z.strictObject({
  accessKeyId: required("Access key ID").regex(/^FKIA/i, "Access key ID starts with FKIA"),
  accessKeyValue: required("Access key value"),
});

/**
 * One system's calls. messages is null when the account's API has no messages call (the path
 * is unverified): the snapshot then reports no alarm source instead of failing.
 */
async function readSystem(
  client: FroniusClient,
  system: FroniusPvSystem,
  now: number,
  readMessages: boolean,
): Promise<{ normalised: NormalisedSystem; alarms: NormalisedAlarm[] | null }> {
  const id = encodeURIComponent(system.pvSystemId);
  const zone = systemZone(system);
  const devices = await client.get(`/pvsystems/${id}/devices`, {}, devicesResponseSchema, "the device list");
  const flow = await client.get(
    `/pvsystems/${id}/flowdata`,
    { timezone: "zulu" },
    flowDataResponseSchema,
    "flowdata",
  );
  // aggrdata counts "today" in the system's zone (UTC when the zone is unknown).
  const today = localDayOf(now, zone ?? "utc").date;
  const aggr = await client.get(
    `/pvsystems/${id}/aggrdata`,
    { from: today, to: today, channel: "EnergyProductionTotal" },
    aggrDataResponseSchema,
    "aggrdata",
  );
  let alarms: NormalisedAlarm[] | null = null;
  if (readMessages) {
    try {
      const answer = await client.get(
        `/pvsystems/${id}/messages`,
        {},
        messagesResponseSchema,
        "the messages",
      );
      alarms = answer.messages.map((message) => toAlarm(system.pvSystemId, message, now));
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === "invalid_request")) throw error;
    }
  }

  const dataTime = utcMillis(flow.data?.logDateTime);
  const connection: SystemState = flow.status?.isOnline ? "online" : "offline";
  const critical = alarms?.some((alarm) => alarm.severity === "critical") ?? false;
  const todayRow = aggr.data.find((row) => row.logDateTime.startsWith(today)) ?? aggr.data[0];
  return {
    alarms,
    normalised: {
      providerSystemId: system.pvSystemId,
      name: system.name ?? `Solar.web system ${system.pvSystemId}`,
      address: formatAddress(system),
      latitude: null,
      longitude: null,
      timezone: zone,
      capacityW: system.peakPower,
      state: critical && connection === "online" ? "alarm" : connection,
      powerW: powerW(channel(flow.data?.channels, "PowerPV")),
      energyTodayWh: energyWh(channel(todayRow?.channels, "EnergyProductionTotal")),
      // Lifetime energy is another billed aggrdata call (period=total); not read each sync.
      energyTotalWh: null,
      dataTime,
      inverters: devices.devices
        .filter(isActiveInverter)
        .map((device) => toInverter(device, connection, dataTime)),
    },
  };
}

export const froniusAdapter: ProviderAdapter<FroniusCredentials> = {
  id: "fronius",
  displayName: providerRegistration("fronius").displayName,
  description: "Fronius inverters through the Solar.web Query API (SWQAPI), read with an access key pair.",
  ingestion: "api",
  fields: [
    {
      field: "accessKeyId",
      name: "accessKeyId",
      label: "Access key ID",
      type: "text",
      placeholder: "FKIA…",
      required: true,
      description: "Solar.web → Settings → API keys: the 36-character ID starting with FKIA.",
    },
    {
      field: "accessKeyValue",
      name: "accessKeyValue",
      label: "Access key value",
      type: "password",
      placeholder: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
      required: true,
      description: "The secret value (a GUID) shown once when the key was created.",
    },
  ],
  credentialsSchema,
  // No limit is documented (research §2.1): ten calls a second per access key keeps us polite;
  // 429 with Retry-After is honoured by the transport.
  callPlan: (credentials) => ({
    key: credentials.accessKeyId,
    perEndpoint: false,
    limits: [{ intervalMs: 100, burst: 1 }],
  }),

  async testConnection(ctx, credentials) {
    // The system count is "basic information" that Solar.web does not bill as data points.
    const client = new FroniusClient(ctx, credentials);
    const answer = await client.get("/pvsystems-list", {}, pvSystemsListResponseSchema, "the PV system list");
    return { sitesFound: answer.links.totalItemsCount ?? answer.pvSystemIds.length };
  },

  /**
   * One unit per /pvsystems page (100 systems): the page, then each system's calls. The cursor
   * carries the next offset and whether the account's API has a messages call at all.
   */
  async syncPage(ctx, credentials, cursor) {
    const client = new FroniusClient(ctx, credentials);
    const at = cursorSchema.parse(cursor === null ? { offset: 0, messages: true } : JSON.parse(cursor));
    const now = ctx.now();
    const page = await client.pvSystemsPage(at.offset);
    const systems: NormalisedSystem[] = [];
    const alarms: NormalisedAlarm[] = [];
    let messagesAvailable = at.messages;
    for (const system of page.systems) {
      const read = await readSystem(client, system, now, messagesAvailable);
      systems.push(read.normalised);
      if (read.alarms) alarms.push(...read.alarms);
      else messagesAvailable = false;
    }
    return {
      systems,
      alarms: messagesAvailable ? alarms : null,
      nextCursor:
        page.nextOffset === null
          ? null
          : JSON.stringify({ offset: page.nextOffset, messages: messagesAvailable }),
      pagesRead: 1,
      totalPages: page.totalPages,
    };
  },

  fetchHistory: (ctx, credentials, request) =>
    fetchFroniusHistory(new FroniusClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};
