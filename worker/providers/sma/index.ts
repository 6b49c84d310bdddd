import { z } from "zod";
import { providerRegistration } from "../../../schema/provider-registry";
import type { NormalisedSystem, ProviderAdapter } from "../types";
import { SmaClient } from "./client";
import { type SmaCredentials, smaCredentialsSchema, smaFields } from "./credentials";
import { fetchSmaHistory } from "./history";
import {
  assertKnownZone,
  energyFromBucketsWh,
  latestReading,
  normaliseInverter,
  normaliseSystem,
  plantLocalDate,
} from "./normalise";
import type { SmaDevice, SmaListedPlant } from "./schemas";

/**
 * Plants read per unit: about 7 calls a plant at SMA's 60 calls a minute make a unit of about 70 s,
 * far inside one invocation, and a killed one loses at most that.
 */
const PLANTS_PER_UNIT = 10;
const cursorSchema = z.object({ plants: z.array(z.object({ plantId: z.string(), timezone: z.string() })) });

/** Solar and hybrid inverters produce PV; battery inverters, meters and data loggers do not. */
const isPvInverter = (device: SmaDevice) =>
  device.isActive !== false && /inverter/i.test(device.type ?? "") && !/battery/i.test(device.type ?? "");

async function readPlant(
  client: SmaClient,
  listed: Pick<SmaListedPlant, "plantId" | "timezone">,
  nowMs: number,
): Promise<NormalisedSystem> {
  const plant = await client.plant(listed.plantId);
  const zone = plant.timezone || listed.timezone;
  assertKnownZone(zone, plant.plantId);
  const today = plantLocalDate(nowMs, zone);
  const devices = (await client.devices(plant.plantId)).filter(isPvInverter);
  const inverters = [];
  for (const device of devices) {
    if (!(await client.offersPv(device.deviceId))) {
      inverters.push(normaliseInverter(device, { reading: null, energyTodayWh: null }, nowMs));
      continue;
    }
    const recent = await client.recentPv(device.deviceId);
    const day = await client.dayPvEnergy(device.deviceId, today);
    const energyTodayWh = energyFromBucketsWh(day, device.generatorPower ?? device.generatorPowerDc ?? null);
    inverters.push(
      normaliseInverter(device, { reading: latestReading(recent, zone, nowMs), energyTodayWh }, nowMs),
    );
  }
  return normaliseSystem({ ...plant, timezone: zone }, inverters);
}

export const smaAdapter: ProviderAdapter<SmaCredentials> = {
  id: "sma",
  displayName: providerRegistration("sma").displayName,
  description:
    "SMA Sunny Portal and ennexOS plants through the SMA Monitoring API (client credentials from SMA, approved once by the plant owner by e-mail).",
  ingestion: "api",
  fields: smaFields,
  credentialsSchema: smaCredentialsSchema,
  // SMA limits calls per credential per 5-minute window without publishing the number; 60 a
  // minute is the figure third-party clients work with. 429 answers carry Retry-After. The limit
  // is the API key's (the client), whichever plant owner's data it reads.
  callPlan: (credentials) => ({
    key: credentials.clientId,
    perEndpoint: false,
    limits: [{ intervalMs: 1000, burst: 1 }],
  }),

  async testConnection(ctx, credentials) {
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: true });
    return { sitesFound: (await client.plants()).length };
  },

  /**
   * Per sync: the plant list, then per plant its details and devices, then per inverter the
   * Recent power and today's 5-minute energy. SMA has no batch endpoints for these. The plant
   * list is not paged by SMA: one answer holds every plant the owner shared, so the first unit
   * reads it and the cursor carries the plants still to read, PLANTS_PER_UNIT per unit.
   *
   * Alarms are null: SMA advertises "log/event" data, but no readable source documents the
   * endpoint or its fields, so nothing is guessed.
   */
  async syncPage(ctx, credentials, cursor) {
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: false });
    const nowMs = ctx.now();
    const plants: Pick<SmaListedPlant, "plantId" | "timezone">[] =
      cursor === null ? await client.plants() : cursorSchema.parse(JSON.parse(cursor)).plants;
    const batch = plants.slice(0, PLANTS_PER_UNIT);
    const rest = plants.slice(PLANTS_PER_UNIT);
    const systems: NormalisedSystem[] = [];
    for (const listed of batch) systems.push(await readPlant(client, listed, nowMs));
    client.save();
    return {
      systems,
      alarms: null,
      nextCursor:
        rest.length === 0
          ? null
          : JSON.stringify({ plants: rest.map(({ plantId, timezone }) => ({ plantId, timezone })) }),
      pagesRead: 1,
      totalPages: cursor === null ? Math.max(1, Math.ceil(plants.length / PLANTS_PER_UNIT)) : null,
    };
  },

  fetchHistory: (ctx, credentials, request) => fetchSmaHistory(ctx, new SmaClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};
