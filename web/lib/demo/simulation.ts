import { getPosition } from "suncalc";
import type { ProviderId } from "../../../schema/api/providers";
import { unitAt } from "./prng";

/**
 * The public demo's fleet, simulated in the browser: the demo's fixed entities (3 sites totalling
 * 1,425 kW, monthly target 78 %) driven by the sun's position (suncalc) through a clear-sky
 * irradiance model, with passing clouds from a seeded generator. Every figure is a pure function
 * of (seed, simulated time), so the demo is the same for every visitor and in tests.
 */

export const DEMO_SEED = 1425;
/** The demo fleet's monthly generation target, shown on its summary card. */
export const MONTHLY_TARGET_PERCENT = 78;
/** The demo sites are in Arizona: no daylight saving, so a local day is always 24 h at UTC-7. */
export const DEMO_TIME_ZONE = "America/Phoenix";
const UTC_OFFSET_MS = -7 * 3_600_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Integration step of the energy figures. */
const STEP_MS = 5 * 60_000;
/** How far the simulated clock moves per tick while Live. */
export const DEMO_STEP_MS = 5 * 60_000;
/** The demo starts in the middle of a morning and skips nights while Live. */
const START_HOUR = 10;
const DAY_START_HOUR = 6;
const DAY_END_HOUR = 20;

export type DemoStatus = "operational" | "maintenance";

export interface DemoSiteDefinition {
  id: string;
  name: string;
  location: string;
  latitude: number;
  longitude: number;
  /** kW DC. */
  capacity: number;
  provider: ProviderId;
  status: DemoStatus;
  /** Share of the clear-sky rating the array delivers (losses; less while in maintenance). */
  performance: number;
  /** Difference from Phoenix's temperatures (°F): Flagstaff is 2,000 m higher. */
  temperatureOffsetF: number;
}

/** PVWatts' default system losses (14 %): a healthy array gives 0.86 of its clear-sky rating. */
const HEALTHY_PERFORMANCE = 0.86;

export const demoSites: readonly DemoSiteDefinition[] = [
  {
    id: "demo-phoenix",
    name: "Desert Sun Solar Farm",
    location: "Phoenix, AZ",
    latitude: 33.4484,
    longitude: -112.074,
    capacity: 500,
    provider: "solis",
    status: "operational",
    performance: HEALTHY_PERFORMANCE,
    temperatureOffsetF: 0,
  },
  {
    id: "demo-tucson",
    name: "Saguaro Valley Array",
    location: "Tucson, AZ",
    latitude: 32.2226,
    longitude: -110.9747,
    capacity: 600,
    provider: "sma",
    status: "operational",
    performance: HEALTHY_PERFORMANCE,
    temperatureOffsetF: -3,
  },
  {
    id: "demo-flagstaff",
    name: "Pine Ridge Rooftops",
    location: "Flagstaff, AZ",
    latitude: 35.1983,
    longitude: -111.6513,
    capacity: 325,
    provider: "fronius",
    status: "maintenance",
    // One of four inverters is isolated for maintenance.
    performance: HEALTHY_PERFORMANCE * 0.75,
    temperatureOffsetF: -22,
  },
];

export type DemoAlertKind = "maintenance" | "stringLow" | "commDelay" | "highTemp";
export type DemoAlertSeverity = "critical" | "warning" | "info";

export interface DemoAlert {
  id: string;
  siteId: string;
  siteName: string;
  severity: DemoAlertSeverity;
  kind: DemoAlertKind;
  /** ms since the epoch. */
  at: number;
  inverter: number;
  /** The alert's figure: % below neighbours, minutes of delay or °F. */
  value: number;
}

/** A demo site; power in kW, energy in kWh, efficiency in %. */
export interface DemoSite {
  id: string;
  name: string;
  location: string;
  capacity: number;
  currentPower: number;
  dailyGeneration: number;
  monthlyGeneration: number;
  /** Month-to-date energy over the clear-sky rating, %; null before the month's first light. */
  efficiency: number | null;
  status: DemoStatus;
  provider: ProviderId;
  alerts: DemoAlert[];
}

/** The demo's weather: °F and mph. */
export interface DemoWeather {
  temperature: number;
  /** %: the conditions label follows from it (clear below 30 %, partly cloudy below 70 %). */
  cloudCover: number;
  irradiance: number;
  windSpeed: number;
}

export interface DemoSummary {
  totalCapacity: number;
  totalCurrentPower: number;
  todayGeneration: number;
  monthlyGeneration: number;
  /** Capacity-weighted month-to-date efficiency, %. */
  avgEfficiency: number | null;
  activeSites: number;
  totalAlerts: number;
}

export interface DemoSnapshot {
  time: number;
  sites: DemoSite[];
  summary: DemoSummary;
  weather: Record<string, DemoWeather>;
}

/** Start of the Arizona day that holds `time`. */
export function localDayStart(time: number): number {
  return Math.floor((time + UTC_OFFSET_MS) / DAY_MS) * DAY_MS - UTC_OFFSET_MS;
}

function localDayIndex(time: number): number {
  return Math.floor((time + UTC_OFFSET_MS) / DAY_MS);
}

function localHour(time: number): number {
  return (time - localDayStart(time)) / HOUR_MS;
}

/** The local calendar day, YYYY-MM-DD. */
export function localDateOf(time: number): string {
  return new Date(time + UTC_OFFSET_MS).toISOString().slice(0, 10);
}

function monthStart(time: number): number {
  const local = new Date(time + UTC_OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - UTC_OFFSET_MS;
}

/** The demo's first instant for a visit: today in Arizona at 10:00. */
export function initialDemoTime(now: number): number {
  return localDayStart(now) + START_HOUR * HOUR_MS;
}

/** One tick of the simulated clock; after dusk it jumps to the next morning. */
export function advanceDemoTime(time: number): number {
  const next = time + DEMO_STEP_MS;
  if (localHour(next) < DAY_END_HOUR) return next;
  return localDayStart(next) + DAY_MS + DAY_START_HOUR * HOUR_MS;
}

/** Clear-sky global horizontal irradiance (Haurwitz), W/m². suncalc 2 answers the altitude in degrees. */
export function clearSkyIrradiance(latitude: number, longitude: number, time: number): number {
  const altitudeDeg = getPosition(new Date(time), latitude, longitude).altitude;
  const cosZenith = Math.sin((altitudeDeg * Math.PI) / 180);
  if (cosZenith <= 0.01) return 0;
  return 1098 * cosZenith * Math.exp(-0.057 / cosZenith);
}

const smoothstep = (x: number) => x * x * (3 - 2 * x);

/** Hourly knots of the sky's clearness, interpolated so clouds come and go smoothly. */
function clearnessKnot(seed: number, siteIndex: number, hour: number): number {
  const u = unitAt(seed, siteIndex, hour, 11);
  // About one hour in seven has a cloud passing, taking up to 45 % of the light.
  return u < 0.15 ? 1 - (0.15 - u) * 3 : 1;
}

/** Share of clear-sky light that reaches the panels (0.44 … 1). */
export function skyClearness(seed: number, siteIndex: number, time: number): number {
  const hazyDay = unitAt(seed, siteIndex, localDayIndex(time), 7) < 0.1;
  const hours = time / HOUR_MS;
  const hour = Math.floor(hours);
  const a = clearnessKnot(seed, siteIndex, hour);
  const b = clearnessKnot(seed, siteIndex, hour + 1);
  return (hazyDay ? 0.8 : 1) * (a + (b - a) * smoothstep(hours - hour));
}

function siteIndexOf(site: DemoSiteDefinition): number {
  return demoSites.indexOf(site);
}

/** Dust on the panels: 0 to 5 % of the light lost, different each day. */
function soiling(seed: number, siteIndex: number, time: number): number {
  return 0.95 + 0.05 * unitAt(seed, siteIndex, localDayIndex(time), 5);
}

/** kW at one instant. */
export function sitePowerKw(seed: number, site: DemoSiteDefinition, time: number): number {
  const irradiance = clearSkyIrradiance(site.latitude, site.longitude, time);
  if (irradiance === 0) return 0;
  const index = siteIndexOf(site);
  return (
    site.capacity *
    (irradiance / 1000) *
    skyClearness(seed, index, time) *
    soiling(seed, index, time) *
    site.performance
  );
}

/** kW the array is rated for under a clear sky at that instant (no losses): the efficiency's base. */
function siteRatingKw(site: DemoSiteDefinition, time: number): number {
  return site.capacity * (clearSkyIrradiance(site.latitude, site.longitude, time) / 1000);
}

interface Energy {
  actualKwh: number;
  ratingKwh: number;
  /** What a healthy array would give under a clear sky (the demo's "expected"). */
  expectedKwh: number;
}

/** Midpoint sums over 5-minute steps; the last step may be partial. */
function energyBetween(seed: number, site: DemoSiteDefinition, from: number, to: number): Energy {
  const total: Energy = { actualKwh: 0, ratingKwh: 0, expectedKwh: 0 };
  for (let start = from; start < to; start += STEP_MS) {
    const end = Math.min(start + STEP_MS, to);
    const mid = (start + end) / 2;
    const hours = (end - start) / HOUR_MS;
    const rating = siteRatingKw(site, mid);
    if (rating === 0) continue;
    total.actualKwh += sitePowerKw(seed, site, mid) * hours;
    total.ratingKwh += rating * hours;
    total.expectedKwh += rating * HEALTHY_PERFORMANCE * hours;
  }
  return total;
}

const dayCache = new Map<string, Energy>();

/** A whole past day's energy, computed once per seed, site and day. */
function fullDayEnergy(seed: number, site: DemoSiteDefinition, dayStart: number): Energy {
  const key = `${seed}:${site.id}:${dayStart}`;
  const cached = dayCache.get(key);
  if (cached) return cached;
  const energy = energyBetween(seed, site, dayStart, dayStart + DAY_MS);
  // Bounded: a visitor leaving the demo Live for days still uses little memory.
  if (dayCache.size > 5000) dayCache.clear();
  dayCache.set(key, energy);
  return energy;
}

/** Energy from the start of `dayStart`'s day up to `time` (a whole day when `time` is later). */
function dayEnergyUpTo(seed: number, site: DemoSiteDefinition, dayStart: number, time: number): Energy {
  if (time >= dayStart + DAY_MS) return fullDayEnergy(seed, site, dayStart);
  return energyBetween(seed, site, dayStart, time);
}

function alertsOfDay(seed: number, site: DemoSiteDefinition, dayStart: number): DemoAlert[] {
  const index = siteIndexOf(site);
  const day = localDayIndex(dayStart);
  const alerts: DemoAlert[] = [];
  if (site.status === "maintenance") {
    alerts.push({
      id: `${site.id}-${day}-maintenance`,
      siteId: site.id,
      siteName: site.name,
      severity: "warning",
      kind: "maintenance",
      at: dayStart + 7 * HOUR_MS,
      inverter: 2,
      value: 0,
    });
  }
  if (unitAt(seed, index, day, 21) < 0.6) {
    const kinds: DemoAlertKind[] = ["stringLow", "commDelay", "highTemp"];
    const kind = kinds[Math.floor(unitAt(seed, index, day, 22) * kinds.length)] ?? "commDelay";
    const minuteOfDay = Math.floor((8.5 + unitAt(seed, index, day, 23) * 7) * 60);
    const u = unitAt(seed, index, day, 24);
    alerts.push({
      id: `${site.id}-${day}-${kind}`,
      siteId: site.id,
      siteName: site.name,
      severity: kind === "commDelay" ? "info" : kind === "highTemp" && u > 0.7 ? "critical" : "warning",
      kind,
      at: dayStart + minuteOfDay * 60_000,
      inverter: 1 + Math.floor(unitAt(seed, index, day, 25) * 4),
      value:
        kind === "stringLow"
          ? Math.round(8 + u * 12)
          : kind === "commDelay"
            ? Math.round(10 + u * 20)
            : Math.round(145 + u * 15),
    });
  }
  return alerts;
}

/** Today's alerts raised so far, newest first. */
export function demoAlerts(seed: number, site: DemoSiteDefinition, time: number): DemoAlert[] {
  return alertsOfDay(seed, site, localDayStart(time))
    .filter((alert) => alert.at <= time)
    .sort((a, b) => b.at - a.at);
}

/** Seasonal highs for Phoenix: about 66 °F in January, 106 °F in July. */
function dailyHighF(time: number): number {
  const local = new Date(time + UTC_OFFSET_MS);
  const dayOfYear = (local.getTime() - Date.UTC(local.getUTCFullYear(), 0, 1)) / DAY_MS;
  return 66 + 40 * ((1 - Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365.25)) / 2);
}

export function demoWeather(seed: number, site: DemoSiteDefinition, time: number): DemoWeather {
  const index = siteIndexOf(site);
  const clearness = skyClearness(seed, index, time);
  const high = dailyHighF(time) + site.temperatureOffsetF;
  const low = high - 24;
  // Warmest at 15:00, coolest at 03:00; clouds take a few degrees off.
  const diurnal = (1 + Math.cos((2 * Math.PI * (localHour(time) - 15)) / 24)) / 2;
  const hours = time / HOUR_MS;
  const hour = Math.floor(hours);
  const windA = unitAt(seed, index, hour, 31);
  const windB = unitAt(seed, index, hour + 1, 31);
  const wind = windA + (windB - windA) * smoothstep(hours - hour);
  return {
    temperature: Math.round(low + (high - low) * diurnal - 6 * (1 - clearness)),
    cloudCover: Math.min(
      100,
      Math.max(0, Math.round((1 - clearness) * 160 + unitAt(seed, index, hour, 32) * 8)),
    ),
    irradiance: Math.round(clearSkyIrradiance(site.latitude, site.longitude, time) * clearness),
    windSpeed: Math.round((3 + wind * 9) * 10) / 10,
  };
}

function simulateSite(seed: number, site: DemoSiteDefinition, time: number): DemoSite {
  const today = localDayStart(time);
  const todayEnergy = dayEnergyUpTo(seed, site, today, time);
  const month: Energy = { ...todayEnergy };
  for (let day = monthStart(time); day < today; day += DAY_MS) {
    const energy = fullDayEnergy(seed, site, day);
    month.actualKwh += energy.actualKwh;
    month.ratingKwh += energy.ratingKwh;
  }
  return {
    id: site.id,
    name: site.name,
    location: site.location,
    capacity: site.capacity,
    currentPower: sitePowerKw(seed, site, time),
    dailyGeneration: todayEnergy.actualKwh,
    monthlyGeneration: month.actualKwh,
    efficiency: month.ratingKwh > 0 ? (month.actualKwh / month.ratingKwh) * 100 : null,
    status: site.status,
    provider: site.provider,
    alerts: demoAlerts(seed, site, time),
  };
}

export function summarise(sites: DemoSite[]): DemoSummary {
  const rated = sites.filter((site) => site.efficiency !== null);
  const ratedCapacity = rated.reduce((sum, site) => sum + site.capacity, 0);
  return {
    totalCapacity: sites.reduce((sum, site) => sum + site.capacity, 0),
    totalCurrentPower: sites.reduce((sum, site) => sum + site.currentPower, 0),
    todayGeneration: sites.reduce((sum, site) => sum + site.dailyGeneration, 0),
    monthlyGeneration: sites.reduce((sum, site) => sum + site.monthlyGeneration, 0),
    avgEfficiency:
      ratedCapacity > 0
        ? rated.reduce((sum, site) => sum + (site.efficiency ?? 0) * site.capacity, 0) / ratedCapacity
        : null,
    activeSites: sites.filter((site) => site.status === "operational").length,
    totalAlerts: sites.reduce((sum, site) => sum + site.alerts.length, 0),
  };
}

/** Everything the demo shows at one simulated instant. */
export function simulateDemo(seed: number, time: number): DemoSnapshot {
  const sites = demoSites.map((site) => simulateSite(seed, site, time));
  return {
    time,
    sites,
    summary: summarise(sites),
    weather: Object.fromEntries(demoSites.map((site) => [site.id, demoWeather(seed, site, time)])),
  };
}

/** Power of every site from 05:00 until `time`, every 15 minutes, as analytics power points (W). */
export function demoPowerSeries(
  seed: number,
  site: DemoSiteDefinition,
  time: number,
  stepMs = 15 * 60_000,
): { time: string; powerW: number | null }[] {
  const points: { time: string; powerW: number | null }[] = [];
  for (let at = localDayStart(time) + 5 * HOUR_MS; at <= time; at += stepMs) {
    points.push({ time: new Date(at).toISOString(), powerW: Math.round(sitePowerKw(seed, site, at) * 1000) });
  }
  return points;
}

/** The last `days` local days up to today so far, as analytics energy days (Wh). */
export function demoEnergySeries(
  seed: number,
  site: DemoSiteDefinition,
  time: number,
  days = 7,
): { date: string; energyWh: number | null; expectedWh: number | null; performanceRatio: number | null }[] {
  const today = localDayStart(time);
  return Array.from({ length: days }, (_, i) => {
    const dayStart = today - (days - 1 - i) * DAY_MS;
    const energy = dayEnergyUpTo(seed, site, dayStart, time);
    return {
      date: localDateOf(dayStart),
      energyWh: Math.round(energy.actualKwh * 1000),
      expectedWh: Math.round(energy.expectedKwh * 1000),
      performanceRatio:
        energy.expectedKwh > 0 ? Math.round((energy.actualKwh / energy.expectedKwh) * 1000) / 1000 : null,
    };
  });
}
