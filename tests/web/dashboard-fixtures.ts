import type { Alert, AlertSummary } from "../../schema/api/alerts";
import {
  type DashboardSummary,
  type FleetTotals,
  type ProviderTotals,
  type SystemsPage,
  summaryProviders,
} from "../../schema/api/dashboard";
import type { FleetSeries } from "../../schema/api/fleet-series";
import type { DashboardMetric } from "../../schema/api/metrics";
import type { Site } from "../../schema/api/sites";
import type { CurrentWeather } from "../../schema/api/weather";
import type { LiveSystemUpdate } from "../../schema/live";
import { metricReadings } from "../../schema/metric-readings";

/** Fixtures in the server's answer shapes (schema/api) for the dashboard, alerts and live screens. */

export function makeMetric(overrides: Partial<DashboardMetric> = {}): DashboardMetric {
  const powerW = overrides.currentPowerW ?? 1500;
  const todayWh = overrides.todayGenerationWh ?? 12_000;
  return {
    systemId: "sys-1",
    siteId: "site-1",
    siteName: "Harbour Roof",
    stationName: "Harbour East",
    provider: "solis",
    providerId: "1298491919448889001",
    ...metricReadings(powerW, todayWh, 10_000),
    performanceRatio: 0.9,
    expectedTodayWh: 13_333,
    state: 1,
    status: "online",
    dataTime: new Date(Date.now() - 5 * 60_000).toISOString(),
    stale: false,
    timezone: "Europe/London",
    inverters: [
      {
        sn: "INV-1",
        state: 1,
        currentPowerW: powerW,
        pac: powerW,
        power: powerW,
        energyWh: todayWh,
        temperatureC: 35,
      },
    ],
    location: { address: "1 Harbour Way", latitude: 51.5, longitude: -0.12 },
    ...overrides,
  };
}

export function makeFleetSite(overrides: Partial<Site> = {}): Site {
  return {
    id: "site-1",
    name: "Harbour Roof",
    address: "1 Harbour Way, London",
    location: "1 Harbour Way, London",
    latitude: 51.5,
    longitude: -0.12,
    city: "London",
    state: null,
    country: "GB",
    timezone: "Europe/London",
    locationSource: "verified",
    provider: "solis",
    providers: ["solis"],
    capacity: 10,
    capacitySource: "systems",
    acLimitKw: null,
    tiltDeg: null,
    azimuthDeg: null,
    estimatedYield: null,
    status: "online",
    currentPower: 1500,
    todayGeneration: 12_000,
    lastUpdate: new Date().toISOString(),
    isActive: true,
    label: null,
    systemCount: 1,
    onlineSystemCount: 1,
    createdAt: "2026-05-01T08:00:00.000Z",
    updatedAt: "2026-05-01T08:00:00.000Z",
    ...overrides,
  };
}

export function makeWeather(overrides: Partial<CurrentWeather> = {}): CurrentWeather {
  return {
    latitude: 51.5,
    longitude: -0.12,
    temperature: 18.4,
    cloudCover: 20,
    solarIrradiance: 640,
    windSpeed: 12.5,
    humidity: 55,
    uvIndex: 5,
    time: "2026-06-01T12:00:00.000Z",
    source: "Weather data by Open-Meteo.com (CC BY 4.0)",
    ...overrides,
  };
}

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: "alert-1",
    title: "Grid overvoltage",
    message: "Inverter INV-1 reported grid overvoltage.",
    facts: null,
    severity: "critical",
    createdAt: "2026-06-01T09:30:00.000Z",
    resolved: false,
    resolvedAt: null,
    provider: "solis",
    code: "1010",
    deviceSerial: "INV-1",
    systemId: "sys-1",
    systemName: "Harbour East",
    siteId: "site-1",
    siteName: "Harbour Roof",
    rule: "vendor_alarm",
    lostEnergyKwh: null,
    lostValue: null,
    currency: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    assignedTo: null,
    history: [],
    ...overrides,
  };
}

export function summaryOf(alerts: readonly Alert[]): AlertSummary {
  const open = alerts.filter((alert) => !alert.resolved);
  return {
    open: open.length,
    critical: open.filter((alert) => alert.severity === "critical").length,
    warning: open.filter((alert) => alert.severity === "warning").length,
    info: open.filter((alert) => alert.severity === "info").length,
  };
}

/** The whole-fleet series answer: no hours yet and nothing to compare unless overridden. */
export function makeFleetSeries(overrides: Partial<FleetSeries> = {}): FleetSeries {
  return {
    timezone: "UTC",
    generatedAt: new Date().toISOString(),
    day: { start: "2026-06-10T00:00:00.000Z", end: "2026-06-11T00:00:00.000Z" },
    generation: [],
    today: { energyWh: 0, yesterdaySameTimeWh: 0, changePct: null, systemCount: 0 },
    performance: { todayPr: null, medianPr7d: null, changePct: null, dayCount: 0 },
    ...overrides,
  };
}

export function makeLiveUpdate(overrides: Partial<LiveSystemUpdate> = {}): LiveSystemUpdate {
  return {
    systemId: "sys-1",
    siteId: "site-1",
    provider: "solis",
    stationName: "Harbour East",
    stationId: "1298491919448889001",
    pac: 4200,
    powerW: 4200,
    etoday: 15.5,
    energyTodayWh: 15_500,
    etotal: 1200,
    state: 1,
    capacityW: 10_000,
    inverterCount: 1,
    inverters: [{ id: "inv-1", sn: "INV-1", state: 1, pac: 4200, etodayKWh: 15.5, inverterTemperature: 38 }],
    acOutputs: null,
    dcInputs: null,
    batteryPower: null,
    batteryCapacity: null,
    batterySoc: null,
    inverterTemperature: 38,
    faultMessage: null,
    alarmCode: null,
    timestamp: new Date().toISOString(),
    ...overrides,
  };
}

/** GET /api/dashboard/summary's answer: one solis system unless overridden. */
export function makeSummary(
  overrides: Partial<Omit<DashboardSummary, "totals" | "providers">> & {
    totals?: Partial<FleetTotals>;
    providers?: Partial<ProviderTotals>[];
  } = {},
): DashboardSummary {
  const { totals, providers, ...rest } = overrides;
  return {
    generatedAt: new Date().toISOString(),
    systemCount: 1,
    excludedSystemCount: 0,
    weatherPlace: { latitude: 51.5, longitude: -0.12, name: "Harbour Roof" },
    sites: { count: 1, activeCount: 1 },
    ...rest,
    totals: {
      systemCount: 1,
      todayWh: 12_000,
      powerW: 1500,
      capacityKw: 10,
      meanEfficiencyPercent: 15,
      performanceRatio: 0.9,
      dataTime: new Date(Date.now() - 5 * 60_000).toISOString(),
      ...totals,
    },
    providers: summaryProviders.map((provider) => ({
      provider,
      siteCount: provider === "solis" ? 1 : 0,
      systemCount: provider === "solis" ? 1 : 0,
      capacityKw: provider === "solis" ? 10 : 0,
      powerW: provider === "solis" ? 1500 : 0,
      ...providers?.find((row) => row.provider === provider),
    })),
  };
}

/**
 * GET /api/dashboard/systems answered from `metrics` in the order given (as the API ordered
 * them): the page and page size asked for, `q` matched against the system names.
 */
export function systemsPages(metrics: readonly DashboardMetric[]) {
  return ({ url }: { url: string }) => {
    const params = new URL(url, "http://localhost").searchParams;
    const page = Number(params.get("page") ?? 1);
    const pageSize = Number(params.get("pageSize") ?? 50);
    const q = (params.get("q") ?? "").toLowerCase();
    const matching = metrics.filter((metric) => metric.stationName.toLowerCase().includes(q));
    const body: SystemsPage = {
      items: matching.slice((page - 1) * pageSize, page * pageSize),
      page,
      pageSize,
      total: matching.length,
    };
    return { body };
  };
}
