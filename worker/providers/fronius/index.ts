import { z } from "zod";
import { providerRegistration } from "../../../schema/provider-registry";
import { localDayOf } from "../../domain/energy/local-day";
import { ProviderError, StaleListsError } from "../errors";
import { inverterFollowingPlant, knownBatch } from "../known";
import type { KnownSystem, NormalisedAlarm, NormalisedSystem, ProviderAdapter, SystemState } from "../types";
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
  type FroniusFlowData,
  type FroniusPvSystem,
  flowDataResponseSchema,
  messagesResponseSchema,
  pvSystemsListResponseSchema,
} from "./schemas";

const cursorSchema = z.object({ offset: z.number().int().min(0), messages: z.boolean() });
/** Stored systems read per unit of a steady cycle: three calls each, about 30 s at our spacing. */
const KNOWN_PER_UNIT = 100;

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

const credentialsSchema = z.strictObject({
  accessKeyId: required("Access key ID").regex(/^FKIA/i, "Access key ID starts with FKIA"),
  accessKeyValue: required("Access key value"),
});

/** What the system list says of a system, in the product's terms. */
function describeSystem(system: FroniusPvSystem): Omit<KnownSystem, "inverters"> {
  return {
    providerSystemId: system.pvSystemId,
    name: system.name ?? `Solar.web system ${system.pvSystemId}`,
    address: formatAddress(system),
    latitude: null,
    longitude: null,
    timezone: systemZone(system),
    capacityW: system.peakPower,
  };
}

/**
 * One system's live calls (flowdata, today's aggrdata, messages). messages is null when the
 * account's API has no messages call (the path is unverified): the snapshot then reports no alarm
 * source instead of failing. A stored system Solar.web answers 404 for is gone from the account.
 */
async function readSystem(
  client: FroniusClient,
  system: KnownSystem,
  now: number,
  readMessages: boolean,
  stored: boolean,
): Promise<{ normalised: NormalisedSystem; alarms: NormalisedAlarm[] | null }> {
  const id = encodeURIComponent(system.providerSystemId);
  const zone = system.timezone;
  let flow: FroniusFlowData;
  try {
    flow = await client.get(
      `/pvsystems/${id}/flowdata`,
      { timezone: "zulu" },
      flowDataResponseSchema,
      "flowdata",
    );
  } catch (error) {
    if (stored && error instanceof ProviderError && error.status === 404) {
      throw new StaleListsError(`Solar.web no longer knows PV system ${system.providerSystemId}`);
    }
    throw error;
  }
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
      alarms = answer.messages.map((message) => toAlarm(system.providerSystemId, message, now));
    } catch (error) {
      if (!(error instanceof ProviderError && error.kind === "invalid_request")) throw error;
    }
  }

  const dataTime = utcMillis(flow.data?.logDateTime);
  const connection: SystemState = flow.status?.isOnline ? "online" : "offline";
  const critical = alarms?.some((alarm) => alarm.severity === "critical") ?? false;
  const todayRow = aggr.data.find((row) => row.logDateTime.startsWith(today)) ?? aggr.data[0];
  const { inverters, ...described } = system;
  return {
    alarms,
    normalised: {
      ...described,
      state: critical && connection === "online" ? "alarm" : connection,
      powerW: powerW(channel(flow.data?.channels, "PowerPV")),
      energyTodayWh: energyWh(channel(todayRow?.channels, "EnergyProductionTotal")),
      // Lifetime energy is another billed aggrdata call (period=total); not read each sync.
      energyTotalWh: null,
      dataTime,
      inverters: inverters.map((inverter) => inverterFollowingPlant(inverter, connection, dataTime)),
    },
  };
}

/** The systems of one unit, read one after the other; alarms null once the API showed it has no messages call. */
async function readSystems(
  client: FroniusClient,
  systems: (KnownSystem | (() => Promise<KnownSystem>))[],
  now: number,
  messages: boolean,
  stored: boolean,
) {
  const read: NormalisedSystem[] = [];
  const alarms: NormalisedAlarm[] = [];
  let messagesAvailable = messages;
  for (const entry of systems) {
    const system = typeof entry === "function" ? await entry() : entry;
    const one = await readSystem(client, system, now, messagesAvailable, stored);
    read.push(one.normalised);
    if (one.alarms) alarms.push(...one.alarms);
    else messagesAvailable = false;
  }
  return { systems: read, alarms: messagesAvailable ? alarms : null, messagesAvailable };
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
  // No limit is documented: ten calls a second per access key keeps us polite;
  // 429 with Retry-After is honoured by the transport.
  callPlan: (credentials) => ({
    key: credentials.accessKeyId,
    secret: credentials.accessKeyValue,
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
   * Reading the lists: one unit per /pvsystems page (100 systems), then each system's device list
   * and live calls; the cursor carries the next offset and whether the account's API has a
   * messages call at all. A steady cycle: the stored systems' live calls, 100 systems a unit.
   */
  async syncPage(ctx, credentials, cursor, known) {
    const client = new FroniusClient(ctx, credentials);
    const now = ctx.now();
    if (known !== null) {
      const { batch, nextCursor, totalPages } = knownBatch(known, cursor, KNOWN_PER_UNIT);
      // The messages call is tried on every cycle: one system's answer tells whether it exists.
      const read = await readSystems(client, batch, now, true, true);
      return { systems: read.systems, alarms: read.alarms, nextCursor, pagesRead: 1, totalPages };
    }
    const at = cursorSchema.parse(cursor === null ? { offset: 0, messages: true } : JSON.parse(cursor));
    const page = await client.pvSystemsPage(at.offset);
    const listed = page.systems.map((system) => async (): Promise<KnownSystem> => {
      const id = encodeURIComponent(system.pvSystemId);
      const devices = await client.get(
        `/pvsystems/${id}/devices`,
        {},
        devicesResponseSchema,
        "the device list",
      );
      return {
        ...describeSystem(system),
        inverters: devices.devices.filter(isActiveInverter).map(toInverter),
      };
    });
    const read = await readSystems(client, listed, now, at.messages, false);
    return {
      systems: read.systems,
      alarms: read.alarms,
      nextCursor:
        page.nextOffset === null
          ? null
          : JSON.stringify({ offset: page.nextOffset, messages: read.messagesAvailable }),
      pagesRead: 1,
      totalPages: page.totalPages,
    };
  },

  fetchHistory: (ctx, credentials, request) =>
    fetchFroniusHistory(new FroniusClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};
