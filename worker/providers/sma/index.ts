import { z } from "zod";
import { providerRegistration } from "../../../schema/provider-registry";
import { ProviderError, StaleListsError } from "../errors";
import { knownBatch } from "../known";
import type { KnownSystem, NormalisedSystem, ProviderAdapter } from "../types";
import { SmaClient } from "./client";
import { type SmaCredentials, smaCredentialsSchema, smaFields } from "./credentials";
import { fetchSmaHistory } from "./history";
import {
  assertKnownZone,
  describePlant,
  energyFromBucketsWh,
  latestReading,
  normaliseInverter,
  plantLocalDate,
  systemFromInverters,
  systemFromPlantSet,
  toKnownInverter,
} from "./normalise";
import type { SmaDevice, SmaListedPlant } from "./schemas";

/**
 * Plants per unit when the lists are read: four calls a plant (detail, devices, the plant's
 * Recent and Day sets) at SMA's 60 calls a minute make a unit of about a minute, inside one
 * invocation.
 */
const LISTED_PER_UNIT = 15;
/** Stored plants per unit of a steady cycle: two calls each, about a minute. */
const KNOWN_PER_UNIT = 30;
const cursorSchema = z.object({ plants: z.array(z.object({ plantId: z.string(), timezone: z.string() })) });

/**
 * Solar and hybrid inverters produce PV; battery inverters, energy meters and data loggers do not.
 * The device type decides, not the measurement sets: a meter at the PV feed-in point offers an
 * EnergyAndPowerPv set too, and counting it would count the plant's power twice.
 */
const isPvInverter = (device: SmaDevice) =>
  device.isActive !== false && /inverter/i.test(device.type ?? "") && !/battery/i.test(device.type ?? "");

/**
 * A plant's live values from its plant-level `EnergyAndPowerPv` sets, two calls a plant whatever
 * its inverter count: current power from `Recent`, the newest measurement (W) with its own time;
 * the day's energy from `Day`'s 5-minute energy buckets. The day set's newest bucket is no current
 * power: today's ends with the bucket under way, holding only what it measured so far, and a
 * finished one is a mean from up to 10 minutes ago. A plant that does not offer plant-level sets
 * (SMA refuses the call while the lists are read) is read device by device, Recent power and the
 * day's buckets per inverter. A stored plant or device SMA refuses (400, 404) has changed or left
 * the account: the lists are read again.
 */
async function readPlant(
  client: SmaClient,
  plant: KnownSystem,
  nowMs: number,
  stored: boolean,
): Promise<NormalisedSystem> {
  const zone = plant.timezone ?? "";
  assertKnownZone(zone, plant.providerSystemId);
  const today = plantLocalDate(nowMs, zone);
  try {
    if (!(stored && client.lacksPlantSet(plant.providerSystemId))) {
      try {
        const recent = await client.plantRecentPv(plant.providerSystemId);
        const day = await client.plantDayPvEnergy(plant.providerSystemId, today);
        if (!stored) client.notePlantSet(plant.providerSystemId, true);
        return systemFromPlantSet(
          plant,
          {
            reading: latestReading(recent, zone, nowMs),
            energyTodayWh: energyFromBucketsWh(day, plant.capacityW),
          },
          nowMs,
        );
      } catch (error) {
        if (stored || !isRefusal(error)) throw error;
        client.notePlantSet(plant.providerSystemId, false);
      }
    }
    return await readDevices(client, plant, today, nowMs);
  } catch (error) {
    if (stored && isRefusal(error)) {
      throw new StaleListsError(`SMA refused live values of stored plant ${plant.providerSystemId}`);
    }
    throw error;
  }
}

const isRefusal = (error: unknown) =>
  error instanceof ProviderError && (error.status === 400 || error.status === 404);

/** A plant read inverter by inverter: Recent power and the day's energy of each. */
async function readDevices(client: SmaClient, plant: KnownSystem, today: string, nowMs: number) {
  const zone = plant.timezone ?? "";
  const inverters = [];
  for (const inverter of plant.inverters) {
    if (!(await client.offersPv(inverter.providerInverterId))) {
      inverters.push(normaliseInverter(inverter, { reading: null, energyTodayWh: null }, nowMs));
      continue;
    }
    const recent = await client.recentPv(inverter.providerInverterId);
    const day = await client.dayPvEnergy(inverter.providerInverterId, today);
    const energyTodayWh = energyFromBucketsWh(day, inverter.ratedPowerW);
    inverters.push(
      normaliseInverter(inverter, { reading: latestReading(recent, zone, nowMs), energyTodayWh }, nowMs),
    );
  }
  return systemFromInverters(plant, inverters);
}

/** A listed plant's details and PV inverters, as the product stores them. */
async function describeListedPlant(
  client: SmaClient,
  listed: Pick<SmaListedPlant, "plantId" | "timezone">,
): Promise<KnownSystem> {
  const plant = await client.plant(listed.plantId);
  const described = describePlant({ ...plant, timezone: plant.timezone || listed.timezone });
  const devices = (await client.devices(plant.plantId)).filter(isPvInverter);
  return { ...described, inverters: devices.map(toKnownInverter) };
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
    secret: credentials.clientSecret,
    perEndpoint: false,
    limits: [{ intervalMs: 1000, burst: 1 }],
  }),

  async testConnection(ctx, credentials) {
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: true });
    return { sitesFound: (await client.plants()).length };
  },

  /**
   * Reading the lists: the plant list (SMA does not page it: one answer holds every plant the
   * owner shared, so the first unit reads it and the cursor carries the plants still to read),
   * then per plant its details, devices and live values. A steady cycle reads only the stored
   * plants' live values, two calls a plant.
   *
   * Alarms are null: SMA advertises "log/event" data, but no readable source documents the
   * endpoint or its fields, so nothing is guessed.
   */
  async syncPage(ctx, credentials, cursor, known) {
    const client = new SmaClient(ctx, credentials);
    await client.ensureConsent({ recheck: false });
    const nowMs = ctx.now();
    const systems: NormalisedSystem[] = [];
    if (known !== null) {
      const { batch, nextCursor, totalPages } = knownBatch(known, cursor, KNOWN_PER_UNIT);
      for (const plant of batch) systems.push(await readPlant(client, plant, nowMs, true));
      client.save();
      return { systems, alarms: null, nextCursor, pagesRead: 1, totalPages };
    }
    const plants: Pick<SmaListedPlant, "plantId" | "timezone">[] =
      cursor === null ? await client.plants() : cursorSchema.parse(JSON.parse(cursor)).plants;
    const batch = plants.slice(0, LISTED_PER_UNIT);
    const rest = plants.slice(LISTED_PER_UNIT);
    for (const listed of batch) {
      systems.push(await readPlant(client, await describeListedPlant(client, listed), nowMs, false));
    }
    client.save();
    return {
      systems,
      alarms: null,
      nextCursor:
        rest.length === 0
          ? null
          : JSON.stringify({ plants: rest.map(({ plantId, timezone }) => ({ plantId, timezone })) }),
      pagesRead: 1,
      totalPages: cursor === null ? Math.max(1, Math.ceil(plants.length / LISTED_PER_UNIT)) : null,
    };
  },

  fetchHistory: (ctx, credentials, request) => fetchSmaHistory(ctx, new SmaClient(ctx, credentials), request),
  historyCallsPerDay: () => 1,
};
