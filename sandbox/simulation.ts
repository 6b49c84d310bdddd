import { DateTime } from "luxon";
import { getPosition } from "suncalc";
import { hash, unit } from "./hash";
import { clearSkyIrradiance, MIN_COS_ZENITH, planeIrradianceWm2, skyAt } from "./sky";

/**
 * Deterministic simulated plants behind every sandbox vendor API. Power follows the sun's
 * position at the plant's coordinates (suncalc) through a clear-sky irradiance model, with
 * cloud dips and occasional inverter faults derived from a hash of plant and time, so the same
 * instant always gives the same answer and every vendor emulator agrees on the numbers.
 */

export interface SimInverter {
  id: string;
  serial: string;
  model: string;
  ratedPowerW: number;
  /** Fraction of the plant's array behind this inverter. */
  share: number;
}

export interface SimPlant {
  id: string;
  name: string;
  street: string;
  city: string;
  country: string;
  latitude: number;
  longitude: number;
  timezone: string;
  capacityW: number;
  tiltDeg: number;
  azimuthDeg: number;
  inverters: SimInverter[];
  /** The vendor has heard nothing from the plant since yesterday 14:00 plant-local time. */
  silentSinceYesterday?: boolean;
  /** Power and faults from another model than this file's (the losses account, sandbox/losses.ts). */
  physics?: SimPhysics;
}

/** A plant's own power and faults, in place of the clear-sky model and the random faults here. */
export interface SimPhysics {
  inverterPowerW(inverterIndex: number, at: number): number;
  faultsOn(localDate: string): SimFault[];
}

export interface SimFault {
  inverterIndex: number;
  startsAt: number;
  endsAt: number;
  code: string;
  message: string;
}

/** Where an account's plants stand, in turn: six zones (a fleet-scale account adds WORLD_SITES). */
export const SITES = [
  {
    city: "Amsterdam",
    country: "NL",
    street: "Keizersgracht",
    latitude: 52.3676,
    longitude: 4.9041,
    timezone: "Europe/Amsterdam",
  },
  {
    city: "Munich",
    country: "DE",
    street: "Leopoldstrasse",
    latitude: 48.1351,
    longitude: 11.582,
    timezone: "Europe/Berlin",
  },
  {
    city: "Milan",
    country: "IT",
    street: "Via Torino",
    latitude: 45.4642,
    longitude: 9.19,
    timezone: "Europe/Rome",
  },
  {
    city: "Phoenix",
    country: "US",
    street: "E Camelback Rd",
    latitude: 33.4484,
    longitude: -112.074,
    timezone: "America/Phoenix",
  },
  {
    city: "Madrid",
    country: "ES",
    street: "Calle de Alcalá",
    latitude: 40.4168,
    longitude: -3.7038,
    timezone: "Europe/Madrid",
  },
  {
    city: "Sydney",
    country: "AU",
    street: "George St",
    latitude: -33.8688,
    longitude: 151.2093,
    timezone: "Australia/Sydney",
  },
] as const;

export type SimSite = (typeof SITES)[number] | (typeof WORLD_SITES)[number];

/**
 * A fleet-scale account's places: twelve zones on both hemispheres and both sides of UTC, so
 * plant-local days, DST changes and night-time syncs differ across the account as in real fleets.
 */
export const WORLD_SITES = [
  ...SITES,
  {
    city: "Brisbane",
    country: "AU",
    street: "Queen St",
    latitude: -27.4698,
    longitude: 153.0251,
    timezone: "Australia/Brisbane",
  },
  {
    city: "Auckland",
    country: "NZ",
    street: "Queen St",
    latitude: -36.8485,
    longitude: 174.7633,
    timezone: "Pacific/Auckland",
  },
  {
    city: "São Paulo",
    country: "BR",
    street: "Avenida Paulista",
    latitude: -23.5505,
    longitude: -46.6333,
    timezone: "America/Sao_Paulo",
  },
  {
    city: "Johannesburg",
    country: "ZA",
    street: "Commissioner St",
    latitude: -26.2041,
    longitude: 28.0473,
    timezone: "Africa/Johannesburg",
  },
  {
    city: "Delhi",
    country: "IN",
    street: "Janpath",
    latitude: 28.6139,
    longitude: 77.209,
    timezone: "Asia/Kolkata",
  },
  {
    city: "Tokyo",
    country: "JP",
    street: "Chuo-dori",
    latitude: 35.6762,
    longitude: 139.6503,
    timezone: "Asia/Tokyo",
  },
  {
    city: "Los Angeles",
    country: "US",
    street: "Wilshire Blvd",
    latitude: 34.0522,
    longitude: -118.2437,
    timezone: "America/Los_Angeles",
  },
  {
    city: "Santiago",
    country: "CL",
    street: "Avenida Providencia",
    latitude: -33.4489,
    longitude: -70.6693,
    timezone: "America/Santiago",
  },
] as const;

const CAPACITIES_KW = [6.4, 12, 48.6, 99.5, 250, 8.2, 30];
/** Plants of one site lie within ±half this (degrees of latitude and longitude) of its centre. */
const PLANT_SPREAD_DEG = 0.1;

/** The plants of one sandbox account: `count` plants, spread over the sites above (or the world's). */
export function simulatedPlants(
  provider: string,
  account: string,
  count = 3,
  sites: readonly SimSite[] = SITES,
): SimPlant[] {
  return Array.from({ length: count }, (_, index) => simulatedPlant(provider, account, index, sites));
}

/** Where the plant at `index` of an account stands: the account's sites in turn. */
export function simulatedSiteIndex(
  provider: string,
  account: string,
  index: number,
  sites: readonly SimSite[] = SITES,
): number {
  return (hash(`${provider}:${account}`) + index) % sites.length;
}

const plantSeed = (provider: string, account: string, index: number) => `${provider}:${account}:${index}`;
const plantCapacityKw = (seed: string) => CAPACITIES_KW[hash(seed) % CAPACITIES_KW.length] ?? 10;
const inverterCountFor = (capacityW: number) => (capacityW > 40_000 ? 3 : 2);
const plantIdBase = (seed: string) => 1_298_491_919_448_631_800n + BigInt(hash(seed));

/** The id of the plant at `index` of an account, without building the plant. */
export function simulatedPlantId(provider: string, account: string, index: number): string {
  return `${plantIdBase(plantSeed(provider, account, index))}`;
}

/** How many inverters the plant at `index` of an account has, without building the plant. */
export function simulatedInverterCount(provider: string, account: string, index: number): number {
  return inverterCountFor(Math.round(plantCapacityKw(plantSeed(provider, account, index)) * 1000));
}

/**
 * The plant at `index` of an account: a pure function of provider, account and index, so a
 * fleet-scale account can be served page by page without building the plants before it.
 */
export function simulatedPlant(
  provider: string,
  account: string,
  index: number,
  sites: readonly SimSite[] = SITES,
): SimPlant {
  const site = sites[simulatedSiteIndex(provider, account, index, sites)] ?? SITES[0];
  const seed = plantSeed(provider, account, index);
  const capacityKw = plantCapacityKw(seed);
  const capacityW = Math.round(capacityKw * 1000);
  const inverterCount = inverterCountFor(capacityW);
  const idBase = plantIdBase(seed);
  const number = 1 + index;
  return {
    id: `${idBase}`,
    name: `${site.city} ${provider === "solis" ? "Rooftop" : "Array"} ${number}`,
    street: `${site.street} ${10 + (hash(`${seed}:street`) % 180)}`,
    city: site.city,
    country: site.country,
    // A small deterministic offset keeps many plants of one city apart on a map.
    latitude: Number((site.latitude + (unit(`${seed}:lat`) - 0.5) * PLANT_SPREAD_DEG).toFixed(5)),
    longitude: Number((site.longitude + (unit(`${seed}:lng`) - 0.5) * PLANT_SPREAD_DEG).toFixed(5)),
    timezone: site.timezone,
    capacityW,
    tiltDeg: 15 + (hash(`${seed}:tilt`) % 25),
    azimuthDeg: site.latitude >= 0 ? 180 : 0,
    inverters: Array.from({ length: inverterCount }, (_, i) => ({
      id: `${idBase + BigInt(1000 + i)}`,
      serial: `${provider.slice(0, 2).toUpperCase()}${(hash(`${seed}:inv:${i}`) % 1e9).toString().padStart(9, "0")}`,
      model: `${provider === "fronius" ? "Symo" : provider === "sma" ? "Sunny Tripower" : "Hybrid"} ${Math.round(capacityKw / inverterCount)}K`,
      ratedPowerW: Math.round((capacityW / inverterCount) * 0.95),
      share: 1 / inverterCount,
    })),
  };
}

/** The sun's altitude at which the clear-sky model starts to give light (about 0.57°). */
const LIGHT_ALTITUDE_DEG = (Math.asin(MIN_COS_ZENITH) * 180) / Math.PI;
/**
 * How far from that altitude the site's centre must be for all its plants to agree. A plant lies
 * at most 0.071° (great circle) from its site's centre, and the apparent altitude moves at most a
 * degree per degree walked (refraction only flattens it), so half a degree leaves a wide margin.
 */
const SITE_AGREEMENT_DEG = 0.5;

/**
 * Whether the clear-sky model gives light (irradiance above zero) at every plant of a site, at
 * none of them, or `null` when the sun is so near the threshold that plants of the site may
 * differ (a few minutes around each sunrise and sunset): one sun position for the whole site.
 */
export function siteDaylight(site: SimSite, at: number): boolean | null {
  const altitudeDeg = getPosition(new Date(at), site.latitude, site.longitude).altitude;
  if (altitudeDeg > LIGHT_ALTITUDE_DEG + SITE_AGREEMENT_DEG) return true;
  if (altitudeDeg < LIGHT_ALTITUDE_DEG - SITE_AGREEMENT_DEG) return false;
  return null;
}

const PERFORMANCE_FACTOR = 0.86;

const faultCache = new Map<string, SimFault[]>();

/** The faults of one plant-local day: one inverter, for 45 minutes, on about one day in four. */
export function faultsOn(plant: SimPlant, localDate: string): SimFault[] {
  if (plant.physics) return plant.physics.faultsOn(localDate);
  const key = `${plant.id}:${plant.timezone}:${localDate}`;
  const cached = faultCache.get(key);
  if (cached) return cached;
  const faults = computeFaults(plant, localDate);
  // Bounded: a long-running sandbox keeps only recent days.
  if (faultCache.size > 50_000) faultCache.clear();
  faultCache.set(key, faults);
  return faults;
}

/** Local 11:00 of a day, per zone and date (not per plant): an account's plants share few zones. */
const elevenOClock = new Map<string, { startsAt: number; endsAt: number }>();

export function faultWindow(zone: string, localDate: string) {
  const key = `${zone}:${localDate}`;
  let window = elevenOClock.get(key);
  if (!window) {
    const start = DateTime.fromISO(`${localDate}T11:00:00`, { zone });
    window = { startsAt: start.toMillis(), endsAt: start.plus({ minutes: 45 }).toMillis() };
    if (elevenOClock.size > 50_000) elevenOClock.clear();
    elevenOClock.set(key, window);
  }
  return window;
}

/** Whether the plant has a fault on that plant-local day (then on its first inverter, FAULT_INVERTER). */
export function hasFaultOn(plantId: string, localDate: string): boolean {
  return hash(`${plantId}:fault:${localDate}`) % 4 === 0;
}

/** The inverter a plant's fault takes down. */
const FAULT_INVERTER = 0;

/** The plant-local date whose fault window (11:00 to 11:45) holds `at` in a zone, or null. */
export function faultDateAt(zone: string, at: number): string | null {
  const localDate = localDateOf(zone, at);
  const { startsAt, endsAt } = faultWindow(zone, localDate);
  return at >= startsAt && at < endsAt ? localDate : null;
}

function computeFaults(plant: SimPlant, localDate: string): SimFault[] {
  if (!hasFaultOn(plant.id, localDate)) return [];
  const { startsAt, endsAt } = faultWindow(plant.timezone, localDate);
  return [
    {
      inverterIndex: FAULT_INVERTER,
      startsAt,
      endsAt,
      code: "1015",
      message: "Grid overvoltage: inverter disconnected",
    },
  ];
}

const localDateFormats = new Map<string, Intl.DateTimeFormat>();

const QUARTER_HOUR_MS = 15 * 60_000;
/** Local dates per zone and quarter-hour: today's UTC offsets are whole quarter-hours. */
const localDates = new Map<string, string>();

/** The plant-local calendar date (en-CA formats as YYYY-MM-DD); cheaper than luxon in hot loops. */
function localDateOf(zone: string, at: number): string {
  const key = `${zone}:${Math.floor(at / QUARTER_HOUR_MS)}`;
  let date = localDates.get(key);
  if (date === undefined) {
    date = formatLocalDate(zone, at);
    if (localDates.size > 100_000) localDates.clear();
    localDates.set(key, date);
  }
  return date;
}

function formatLocalDate(zone: string, at: number): string {
  let format = localDateFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    localDateFormats.set(zone, format);
  }
  return format.format(at);
}

export function activeFault(plant: SimPlant, inverterIndex: number, at: number): SimFault | null {
  const localDate = localDateOf(plant.timezone, at);
  return (
    faultsOn(plant, localDate).find(
      (f) => f.inverterIndex === inverterIndex && at >= f.startsAt && at < f.endsAt,
    ) ?? null
  );
}

export function inverterPowerW(plant: SimPlant, inverterIndex: number, at: number): number {
  if (plant.physics) return Math.round(plant.physics.inverterPowerW(inverterIndex, at));
  const inverter = plant.inverters[inverterIndex];
  if (!inverter || activeFault(plant, inverterIndex, at)) return 0;
  // The light on the plant's own plane under its place's sky (what the weather service reports there).
  const irradiance = planeIrradianceWm2(
    skyAt(plant.latitude, plant.longitude, at),
    plant.tiltDeg,
    plant.azimuthDeg,
  );
  const power = plant.capacityW * inverter.share * (irradiance / 1000) * PERFORMANCE_FACTOR;
  return Math.round(Math.min(power, inverter.ratedPowerW));
}

export function plantPowerW(plant: SimPlant, at: number): number {
  return plant.inverters.reduce((sum, _, i) => sum + inverterPowerW(plant, i, at), 0);
}

const STEP_MS = 5 * 60 * 1000;

/** Running integrals per inverter, extended step by step: the sandbox answers the same day often. */
const energyCache = new Map<string, { midnight: number; until: number; energyWh: number }>();

/** Energy since plant-local midnight, integrated over 5-minute steps of the same power curve. */
export function inverterEnergyTodayWh(plant: SimPlant, inverterIndex: number, at: number): number {
  const midnight = DateTime.fromMillis(at, { zone: plant.timezone }).startOf("day").toMillis();
  const key = `${plant.id}:${inverterIndex}`;
  const cached = energyCache.get(key);
  let start = midnight;
  let energy = 0;
  if (cached && cached.midnight === midnight && cached.until <= at) {
    start = cached.until;
    energy = cached.energyWh;
  }
  let t = start;
  for (; t + STEP_MS <= at; t += STEP_MS) {
    energy += (inverterPowerW(plant, inverterIndex, t) * STEP_MS) / 3_600_000;
  }
  // An earlier time of the same day (a lifetime total read at midnight) keeps the longer integral.
  if (cached && cached.midnight === midnight && cached.until > t) return Math.round(energy);
  if (energyCache.size > 100_000) energyCache.clear();
  energyCache.set(key, { midnight, until: t, energyWh: energy });
  return Math.round(energy);
}

export function plantEnergyTodayWh(plant: SimPlant, at: number): number {
  return plant.inverters.reduce((sum, _, i) => sum + inverterEnergyTodayWh(plant, i, at), 0);
}

/** Lifetime energy: a plausible yield since commissioning plus today's. */
export function inverterEnergyTotalWh(plant: SimPlant, inverterIndex: number, at: number): number {
  const inverter = plant.inverters[inverterIndex];
  if (!inverter) return 0;
  const yearsInService = 1 + (hash(`${plant.id}:age`) % 6);
  const past = plant.capacityW * inverter.share * 1.05 * 365 * yearsInService;
  return Math.round(past + inverterEnergyTodayWh(plant, inverterIndex, at));
}

export type SimState = "online" | "offline" | "fault";

export function inverterState(plant: SimPlant, inverterIndex: number, at: number): SimState {
  if (activeFault(plant, inverterIndex, at)) return "fault";
  return clearSkyIrradiance(plant.latitude, plant.longitude, at) > 0 ? "online" : "offline";
}

export function plantState(plant: SimPlant, at: number): SimState {
  const states = plant.inverters.map((_, i) => inverterState(plant, i, at));
  if (states.includes("fault")) return "fault";
  return states.includes("online") ? "online" : "offline";
}

/** Vendors deliver data in 5-minute buckets: the newest bucket start at or before `at`. */
export const dataTimeAt = (at: number) => Math.floor(at / STEP_MS) * STEP_MS;

/** Inverter temperature: ambient plus heating with load. */
export function inverterTemperatureC(plant: SimPlant, inverterIndex: number, at: number): number {
  const inverter = plant.inverters[inverterIndex];
  if (!inverter) return 0;
  const load = inverterPowerW(plant, inverterIndex, at) / inverter.ratedPowerW;
  return Math.round((18 + load * 25) * 10) / 10;
}
