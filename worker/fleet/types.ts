import type { ProviderId } from "../../schema/api/providers";
import type { SystemState } from "../../schema/domain";
import type { LiveMessage } from "../../schema/live";

/** The site lists' pages as the store answers them (built by its read model of sites). */
export type { EnhancedSiteListItem, SiteListItem, SitesPage } from "./read-models/sites";

/**
 * What crosses between the worker and an organisation's fleet store (worker/fleet/store.ts).
 * Ids are D1's; the store maps them to its own small integer keys.
 */

/** A system's metadata as D1 holds it, with the place its local days and irradiance are counted at. */
export interface DirectoryEntry {
  systemId: string;
  provider: ProviderId;
  providerSystemId: string;
  name: string;
  capacityW: number | null;
  siteId: string | null;
  siteName: string | null;
  siteCapacityKw: number | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The site's zone, else the system's own, else UTC. */
  timezone: string;
  locationKey: string | null;
  inverters: { inverterId: string; providerInverterId: string; serial: string | null }[];
}

export interface InverterPoint {
  inverterId: string;
  /** Vendor data time, epoch ms. */
  time: number;
  state: SystemState;
  powerW: number | null;
  energyTodayWh: number | null;
  temperatureC: number | null;
}

/** One system's values at one vendor data time: a stored point, and the live values when newest. */
export interface SystemPoint {
  systemId: string;
  time: number;
  state: SystemState;
  powerW: number | null;
  energyTodayWh: number | null;
  energyTotalWh: number | null;
  inverters: InverterPoint[];
}

/** D1's organisation change counter just before and just after the writes that produced a page. */
export interface DirectoryVersions {
  before: number;
  after: number;
}

/** One unit of stored work: a vendor page, an import, a backfill chunk. */
export interface FleetPage {
  /** Metadata of the page's systems, read from D1 after the page's D1 writes. */
  directory: DirectoryEntry[];
  versions?: DirectoryVersions;
  points: SystemPoint[];
  /** Published to the organisation's sockets once the page is stored. */
  messages: LiveMessage[];
}

export interface StoredPage {
  points: number;
  hoursRolledUp: number;
  daysRolledUp: number;
  /** Rows the page inserted or updated in the store (SQLite's change count), rollups included. */
  rowsWritten: number;
  delivered: number;
}

/** Live values of one system, as the sites and portfolios read them. */
export interface LiveValues {
  systemId: string;
  state: SystemState | null;
  powerW: number | null;
  energyTodayWh: number | null;
  dataTime: number | null;
}

/** Rows of the D1 tables this store replaced, moved into it once (see worker/engines/legacy-fleet-move.ts). */
export interface LegacyRows {
  systemReadings: {
    systemId: string;
    time: number;
    powerW: number | null;
    energyTodayWh: number | null;
    state: SystemState;
  }[];
  inverterReadings: {
    inverterId: string;
    time: number;
    powerW: number | null;
    energyTodayWh: number | null;
    temperatureC: number | null;
    state: SystemState;
  }[];
  hourly: { systemId: string; hourStart: number; avgPowerW: number | null; samples: number }[];
  daily: { systemId: string; date: string; energyWh: number; peakPowerW: number | null }[];
  live: SystemPoint[];
}

/** One system's recent data as fault detection reads it (times epoch ms, power whole watts). */
export interface DetectionSystem {
  systemId: string;
  capacityW: number | null;
  latitude: number | null;
  longitude: number | null;
  locationKey: string | null;
  /** The newest vendor data time the store holds for the system (live values or points). */
  lastDataAt: number | null;
  /** Points in the window, oldest first: [time, power W or null]. */
  points: [number, number | null][];
  /** Each inverter's points in the window, oldest first: [time, power W or null, offline 0/1]. */
  inverters: { serial: string; points: [number, number | null, number][] }[];
}

/** What storing one day of one system's history did. */
export interface StoredHistoryDay {
  points: number;
  /** Points that were not stored before. */
  pointsStored: number;
  hoursRolledUp: number;
  daysRolledUp: number;
  /** Rows inserted or updated in the store (SQLite's change count): 0 when the day was stored already. */
  rowsWritten: number;
}

/** One page of the dashboard metrics answer. */
export interface MetricsAnswer {
  /** The page's key: it changes when any entry on it may have. */
  key: string;
  /** Every system of the organisation, over all pages. */
  total: number;
  pageCount: number;
  /** The page's JSON, gzipped; null when the caller already holds the page with this key. */
  gzip: Uint8Array | null;
}
