import { alertFigures, listReportSystems } from "../data/fleet-report";
import { weatherByLocation } from "../data/irradiance";
import { listPortfolioSiteLinks, listPortfolios } from "../data/portfolios";
import { DEFAULT_CALIBRATION, performanceRatio } from "../domain/solar/pv-model";
import { placeOfKey, referenceWhPerKw } from "../domain/solar/reference-yield";
import type { Env } from "../env";
import type { Db } from "../lib/db";
import { fleetStoreFor } from "../lib/fleet-store";

const HOUR_MS = 3_600_000;
/** An hour counts toward availability when the sun gives at least this much (W/m²). */
export const DAYLIGHT_GHI_WM2 = 50;

export interface SiteFigures {
  siteId: string;
  siteName: string;
  energyWh: number;
  /** Expected by the one model from the weather (each system's place and calibration); 0 without weather. */
  expectedWh: number;
  performanceRatio: number | null;
  /** Share of daylight hours in which the site's systems produced; null without irradiance. */
  availability: number | null;
  lostEnergyWh: number;
}

export interface PortfolioFigures {
  portfolioId: string;
  portfolioName: string;
  energyWh: number;
  expectedWh: number;
  performanceRatio: number | null;
}

export interface FleetReport {
  fromMs: number;
  toMs: number;
  sites: SiteFigures[];
  portfolios: PortfolioFigures[];
  /** The (at most five) sites with the lowest performance ratio. */
  worst: SiteFigures[];
  alertsOpened: number;
  alertsClosed: number;
  lostEnergyWh: number;
}

/**
 * An organisation's energy against expected per site and portfolio over [fromMs, toMs) (the
 * plant-local dates [fromDate, toDate]), availability, and the alerts of the period.
 */
export async function buildFleetReport(
  deps: { db: Db; env: Env },
  orgId: string,
  period: { fromMs: number; toMs: number; fromDate: string; toDate: string },
): Promise<FleetReport> {
  const { db, env } = deps;
  const [systems, portfolios, links, alerts] = await Promise.all([
    listReportSystems(db, orgId),
    listPortfolios(db, orgId),
    listPortfolioSiteLinks(db, orgId),
    alertFigures(db, orgId, period.fromMs, period.toMs),
  ]);
  const keys = [...new Set(systems.flatMap((s) => (s.location_key ? [s.location_key] : [])))];
  const [weather, learned] = await Promise.all([
    weatherByLocation(db, keys, period.fromMs, period.toMs - 1),
    fleetStoreFor(env, orgId).learnedModels(
      orgId,
      systems.map((s) => s.id),
    ),
  ]);
  const calibrationOf = new Map(learned.map((model) => [model.systemId, model.calibration]));
  // Each place's reference yield over the period (the one model per kW of DC, calibration 1).
  const yieldByKey = new Map<string, number>();
  const daylight: [string, number][] = [];
  for (const [key, hours] of weather) {
    const place = placeOfKey(key);
    if (place) yieldByKey.set(key, referenceWhPerKw(place, [...hours.values()]));
    for (const hour of hours.values()) {
      if (hour.ghiWm2 >= DAYLIGHT_GHI_WM2) daylight.push([key, hour.hourStart / HOUR_MS]);
    }
  }
  const daylightHours = new Map<string, number>();
  for (const [key] of daylight) daylightHours.set(key, (daylightHours.get(key) ?? 0) + 1);
  const production = new Map(
    (await fleetStoreFor(env, orgId).periodProduction(orgId, period.fromDate, period.toDate, daylight)).map(
      (p) => [p.systemId, p],
    ),
  );

  const bySite = new Map<string, SiteFigures & { possibleHours: number; producingHours: number }>();
  for (const system of systems) {
    const site = bySite.get(system.site_id) ?? {
      siteId: system.site_id,
      siteName: system.site_name,
      energyWh: 0,
      expectedWh: 0,
      performanceRatio: null,
      availability: null,
      lostEnergyWh: 0,
      possibleHours: 0,
      producingHours: 0,
    };
    const made = production.get(system.id);
    site.energyWh += made?.energyWh ?? 0;
    site.lostEnergyWh += alerts.lostWhBySystem.get(system.id) ?? 0;
    if (system.location_key && system.capacity_w) {
      site.expectedWh += Math.round(
        (system.capacity_w / 1000) *
          (calibrationOf.get(system.id) ?? DEFAULT_CALIBRATION) *
          (yieldByKey.get(system.location_key) ?? 0),
      );
      site.possibleHours += daylightHours.get(system.location_key) ?? 0;
      site.producingHours += made?.producingHours ?? 0;
    }
    bySite.set(system.site_id, site);
  }
  const sites: SiteFigures[] = [...bySite.values()]
    .map(({ possibleHours, producingHours, ...site }) => ({
      ...site,
      performanceRatio: performanceRatio(site.energyWh, site.expectedWh),
      availability: possibleHours > 0 ? Math.round((producingHours / possibleHours) * 1000) / 1000 : null,
    }))
    .sort((a, b) => a.siteName.localeCompare(b.siteName));
  const siteById = new Map(sites.map((s) => [s.siteId, s]));
  const portfolioFigures = portfolios.map((portfolio) => {
    const own = links
      .filter((l) => l.portfolioId === portfolio.id)
      .flatMap((l) => siteById.get(l.siteId) ?? []);
    const energyWh = own.reduce((sum, s) => sum + s.energyWh, 0);
    const expectedWh = own.reduce((sum, s) => sum + s.expectedWh, 0);
    return {
      portfolioId: portfolio.id,
      portfolioName: portfolio.name,
      energyWh,
      expectedWh,
      performanceRatio: performanceRatio(energyWh, expectedWh),
    };
  });
  const worst = sites
    .filter((s) => s.performanceRatio !== null)
    .sort((a, b) => (a.performanceRatio ?? 0) - (b.performanceRatio ?? 0))
    .slice(0, 5);
  return {
    fromMs: period.fromMs,
    toMs: period.toMs,
    sites,
    portfolios: portfolioFigures,
    worst,
    alertsOpened: alerts.opened,
    alertsClosed: alerts.closed,
    lostEnergyWh: [...alerts.lostWhBySystem.values()].reduce((a, b) => a + b, 0),
  };
}
