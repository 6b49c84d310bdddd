import { DateTime } from "luxon";
import { hash } from "./hash";
import type { SimFault, SimPlant } from "./simulation";
import { placeKey, planeIrradianceWm2, RAIN_EVERY_DAYS, rainDay, sandiaCellC, skyAt } from "./sky";

/**
 * The losses account: five plants whose power comes from the sandbox's sky (sandbox/sky.ts, what
 * its weather service reports) with losses injected on a 30-day cycle of plant-local days, so any
 * 30 days hold each of them:
 *   - reference: healthy every day;
 *   - outages: both inverters off all day on cycle days 3, 4 and 17;
 *   - clipping: 15 kWp behind one 9 kW inverter, clipped on bright hours;
 *   - inverter: the second of its two inverters off on cycle days 10 to 13;
 *   - soiling: dirt takes 0.8 % more of the light each day since the last rain, washed off by it.
 * Each plant stands where the sandbox geocoder puts its address (Solar.web gives no coordinates,
 * so the product's sites are geocoded), and its sky is that of the 0.01° place the product asks
 * the weather service for: a plant gets the very sky the weather service reports for its site. `lossTruth` gives what was injected.
 * Solar.web serves the account (sandboxAccounts.fronius, `losses`).
 */

export type LossScenario = "reference" | "outages" | "clipping" | "inverter" | "soiling";

export interface LossPlantSpec {
  scenario: LossScenario;
  name: string;
  city: string;
  country: string;
  street: string;
  latitude: number;
  longitude: number;
  timezone: string;
  capacityW: number;
  tiltDeg: number;
  azimuthDeg: number;
  /** Each inverter's AC rating, W; the DC array is shared equally among them. */
  inverterRatingsW: number[];
}

export const LOSS_PLANTS: readonly LossPlantSpec[] = [
  {
    scenario: "reference",
    name: "Madrid Reference",
    city: "Madrid",
    country: "ES",
    street: "Calle de Alcalá 42",
    latitude: 40.4203,
    longitude: -3.6986,
    timezone: "Europe/Madrid",
    capacityW: 10_000,
    tiltDeg: 30,
    azimuthDeg: 180,
    inverterRatingsW: [5_000, 5_000],
  },
  {
    scenario: "outages",
    name: "Munich Outages",
    city: "Munich",
    country: "DE",
    street: "Leopoldstrasse 12",
    latitude: 48.1625,
    longitude: 11.5865,
    timezone: "Europe/Berlin",
    capacityW: 12_000,
    tiltDeg: 35,
    azimuthDeg: 170,
    inverterRatingsW: [6_000, 6_000],
  },
  {
    scenario: "clipping",
    name: "Phoenix Clipping",
    city: "Phoenix",
    country: "US",
    street: "E Camelback Rd 300",
    latitude: 33.5092,
    longitude: -112.0335,
    timezone: "America/Phoenix",
    capacityW: 15_000,
    tiltDeg: 25,
    azimuthDeg: 180,
    inverterRatingsW: [9_000],
  },
  {
    scenario: "inverter",
    name: "Milan Inverter",
    city: "Milan",
    country: "IT",
    street: "Via Torino 8",
    latitude: 45.4609,
    longitude: 9.1839,
    timezone: "Europe/Rome",
    capacityW: 20_000,
    tiltDeg: 30,
    azimuthDeg: 190,
    inverterRatingsW: [10_000, 10_000],
  },
  {
    scenario: "soiling",
    name: "Rome Soiling",
    city: "Rome",
    country: "IT",
    street: "Piazza Venezia 5",
    latitude: 41.8933203,
    longitude: 12.4829321,
    timezone: "Europe/Rome",
    capacityW: 8_000,
    tiltDeg: 20,
    azimuthDeg: 180,
    inverterRatingsW: [4_000, 4_000],
  },
];

/** DC-side losses (mismatch, wiring, nameplate, light-induced degradation) and inverter efficiency. */
const DC_PERFORMANCE = 0.9;
const INVERTER_EFFICIENCY = 0.965;
/** The modules' power temperature coefficient, per °C. */
const TEMPERATURE_COEFFICIENT = -0.004;
export const CYCLE_DAYS = 30;
export const OUTAGE_CYCLE_DAYS = [3, 4, 17] as const;
export const INVERTER_DOWN_CYCLE_DAYS = [10, 11, 12, 13] as const;
export const DOWN_INVERTER = 1;
/** Light lost to dirt per day since the last rain, and the most it takes. */
export const SOILING_PER_DAY = 0.008;
const SOILING_MAX = 0.25;
const DAY_MS = 86_400_000;
const STEP_MS = 5 * 60_000;

/** The plant-local date of an instant. */
const localDateOf = (zone: string, at: number) => DateTime.fromMillis(at, { zone }).toISODate() ?? "";

/** Where a plant-local date sits in the 30-day cycle. */
export function cycleDay(localDate: string): number {
  const days = Math.round(DateTime.fromISO(localDate, { zone: "utc" }).toMillis() / DAY_MS);
  return ((days % CYCLE_DAYS) + CYCLE_DAYS) % CYCLE_DAYS;
}

export function outageOn(plant: LossPlantSpec, localDate: string): boolean {
  return (
    plant.scenario === "outages" && (OUTAGE_CYCLE_DAYS as readonly number[]).includes(cycleDay(localDate))
  );
}

export function inverterDownOn(plant: LossPlantSpec, inverterIndex: number, localDate: string): boolean {
  return (
    plant.scenario === "inverter" &&
    inverterIndex === DOWN_INVERTER &&
    (INVERTER_DOWN_CYCLE_DAYS as readonly number[]).includes(cycleDay(localDate))
  );
}

/** The share of light that gets through the dirt at an instant: 1 clean. */
export function soilingRatioAt(plant: LossPlantSpec, at: number): number {
  if (plant.scenario !== "soiling") return 1;
  // Rain comes on the place's rain days (sky.ts), from 00:00 UTC: the panels are clean from then.
  const place = placeKey(plant.latitude, plant.longitude);
  const day = Math.floor(at / DAY_MS);
  let lastRainDay = day;
  while (lastRainDay > day - RAIN_EVERY_DAYS && !rainsOn(place, lastRainDay)) lastRainDay--;
  const days = (at - lastRainDay * DAY_MS) / DAY_MS;
  return 1 - Math.min(SOILING_MAX, SOILING_PER_DAY * days);
}

const rainsOn = (place: string, day: number) => rainDay(place, day * DAY_MS);

/** One inverter's AC power at an instant, before any injected loss but soiling, and without its limit. */
function unlimitedInverterW(
  plant: LossPlantSpec,
  inverterIndex: number,
  at: number,
  soiling: number,
): number {
  const share = 1 / plant.inverterRatingsW.length;
  const sky = skyAt(plant.latitude, plant.longitude, at);
  const poa = planeIrradianceWm2(sky, plant.tiltDeg, plant.azimuthDeg) * soiling;
  if (poa <= 0 || inverterIndex >= plant.inverterRatingsW.length) return 0;
  const cellC = sandiaCellC(poa, sky.airC, sky.windMs);
  const dcW =
    plant.capacityW * share * (poa / 1000) * (1 + TEMPERATURE_COEFFICIENT * (cellC - 25)) * DC_PERFORMANCE;
  return Math.max(0, dcW * INVERTER_EFFICIENCY);
}

/** An inverter's AC power at an instant, W, with every injected loss. */
export function lossPlantInverterW(plant: LossPlantSpec, inverterIndex: number, at: number): number {
  const date = localDateOf(plant.timezone, at);
  if (outageOn(plant, date) || inverterDownOn(plant, inverterIndex, date)) return 0;
  const ratingW = plant.inverterRatingsW[inverterIndex] ?? 0;
  return Math.min(ratingW, unlimitedInverterW(plant, inverterIndex, at, soilingRatioAt(plant, at)));
}

/** Whether the inverter reports a fault at the instant (an injected outage in daylight). */
export function lossPlantInverterFault(plant: LossPlantSpec, inverterIndex: number, at: number): boolean {
  const date = localDateOf(plant.timezone, at);
  return outageOn(plant, date) || inverterDownOn(plant, inverterIndex, date);
}

/** What was injected into one plant-local day, Wh, integrated over 5-minute steps as the plants produce. */
export interface LossTruth {
  /** What the plant gave. */
  actualWh: number;
  /** What it would have given clean, whole and unclipped. */
  idealWh: number;
  downtimeWh: number;
  partialOutageWh: number;
  clippingWh: number;
  soilingWh: number;
}

export function lossTruth(plant: LossPlantSpec, localDate: string): LossTruth {
  const start = DateTime.fromISO(localDate, { zone: plant.timezone }).startOf("day").toMillis();
  const end = DateTime.fromISO(localDate, { zone: plant.timezone })
    .plus({ days: 1 })
    .startOf("day")
    .toMillis();
  const truth: LossTruth = {
    actualWh: 0,
    idealWh: 0,
    downtimeWh: 0,
    partialOutageWh: 0,
    clippingWh: 0,
    soilingWh: 0,
  };
  const hours = STEP_MS / 3_600_000;
  const outage = outageOn(plant, localDate);
  for (let at = start; at < end; at += STEP_MS) {
    const soiling = soilingRatioAt(plant, at);
    plant.inverterRatingsW.forEach((ratingW, i) => {
      const clean = unlimitedInverterW(plant, i, at, 1);
      if (clean <= 0) return;
      const soiled = soiling === 1 ? clean : unlimitedInverterW(plant, i, at, soiling);
      const actual = lossPlantInverterW(plant, i, at);
      truth.idealWh += clean * hours;
      truth.actualWh += actual * hours;
      if (outage) truth.downtimeWh += soiled * hours;
      else if (inverterDownOn(plant, i, localDate)) truth.partialOutageWh += soiled * hours;
      else {
        truth.clippingWh += Math.max(0, soiled - ratingW) * hours;
        truth.soilingWh += (clean - soiled) * hours;
      }
    });
  }
  return truth;
}

/** Where a plant's injected outages fall on a plant-local day: the whole day, reported as a fault. */
function injectedFaults(plant: LossPlantSpec, localDate: string): SimFault[] {
  const start = DateTime.fromISO(localDate, { zone: plant.timezone }).startOf("day");
  const window = { startsAt: start.toMillis(), endsAt: start.plus({ days: 1 }).toMillis() };
  return plant.inverterRatingsW.flatMap((_, inverterIndex) =>
    outageOn(plant, localDate) || inverterDownOn(plant, inverterIndex, localDate)
      ? [{ inverterIndex, ...window, code: "3021", message: "Inverter off: DC isolator open" }]
      : [],
  );
}

/** The losses account's plants as a vendor emulator serves them (ids and serials from the vendor's name). */
export function lossPlants(provider: string): SimPlant[] {
  return LOSS_PLANTS.map((plant, index) => {
    const idBase = 1_398_491_919_448_631_800n + BigInt(hash(`${provider}:losses:${index}`));
    const count = plant.inverterRatingsW.length;
    return {
      id: `${idBase}`,
      name: plant.name,
      street: plant.street,
      city: plant.city,
      country: plant.country,
      latitude: plant.latitude,
      longitude: plant.longitude,
      timezone: plant.timezone,
      capacityW: plant.capacityW,
      tiltDeg: plant.tiltDeg,
      azimuthDeg: plant.azimuthDeg,
      inverters: plant.inverterRatingsW.map((ratedPowerW, i) => ({
        id: `${idBase + BigInt(1000 + i)}`,
        serial: `${provider.slice(0, 2).toUpperCase()}L${(hash(`${provider}:losses:${index}:inv:${i}`) % 1e8).toString().padStart(8, "0")}`,
        model: `${provider === "fronius" ? "Symo" : "Hybrid"} ${Math.round(ratedPowerW / 1000)}K`,
        ratedPowerW,
        share: 1 / count,
      })),
      physics: {
        inverterPowerW: (inverterIndex, at) => lossPlantInverterW(plant, inverterIndex, at),
        faultsOn: (localDate) => injectedFaults(plant, localDate),
      },
    };
  });
}
