import { DateTime } from "luxon";
import {
  type AvailableSystem,
  type EnhancedSite,
  type Site,
  type SiteStatus,
  type SiteSystem,
  SYSTEM_TYPE,
} from "../../schema/api/sites";
import type { SystemState } from "../../schema/domain";
import type { MonitoringSystemRow, SiteRow } from "../../schema/tables";
import { isDaylight, isOutdated } from "./fleet-rules";
import { effectiveOrientation } from "./solar/orientation";

/*
 * A site's live state and the API's site and system shapes, from the D1 rows and the live values
 * of the organisation's fleet store: the same for the use cases and the store's site lists.
 */

/** A system's record as the site views read it, with its live values from the fleet store. */
export interface SystemView
  extends Pick<
    MonitoringSystemRow,
    | "id"
    | "siteId"
    | "provider"
    | "providerSystemId"
    | "name"
    | "address"
    | "latitude"
    | "longitude"
    | "capacityW"
    | "state"
    | "tiltDeg"
    | "azimuthDeg"
    | "acLimitKw"
  > {
  inverterCount: number;
  /** The sum of its inverters' rated AC power in W when every inverter has one; else null. */
  invertersRatedW: number | null;
  powerW: number | null;
  energyTodayWh: number | null;
  dataTime: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const kw = (watts: number | null) => (watts === null ? null : watts / 1000);

/** A system's state after the freshness rule: vendor "online" with stale data in daylight is offline. */
export function systemStatus(system: SystemView, daylight: boolean, now: number): SystemState {
  if (system.state !== "online") return system.state;
  return daylight && isOutdated(system.dataTime, now) ? "offline" : "online";
}

/** Power only counts while the data is recent: a reading from hours ago is no current power. */
const isFresh = (system: SystemView, now: number) => !isOutdated(system.dataTime, now);

export interface SiteLive {
  status: SiteStatus;
  statuses: Map<string, SystemState>;
  currentPowerW: number;
  todayEnergyWh: number;
  lastUpdateMs: number | null;
  onlineCount: number;
  systemsCapacityKw: number;
  capacityKw: number;
}

/**
 * Live totals of a site from its systems (any alarm makes it a fault; else any online system makes it
 * online). `midnightOf` may remember each zone's midnight across the sites of one read.
 */
export function siteLive(
  site: SiteRow,
  systems: SystemView[],
  now: number,
  midnightOf: (zone: string, compute: () => number) => number = (_zone, compute) => compute(),
): SiteLive {
  const daylight = isDaylight(site.latitude, site.longitude, now);
  const midnight = midnightOf(site.timezone, () =>
    DateTime.fromMillis(now, { zone: site.timezone }).startOf("day").toMillis(),
  );
  const statuses = new Map<string, SystemState>();
  let currentPowerW = 0;
  let todayEnergyWh = 0;
  let lastUpdateMs: number | null = null;
  let systemsCapacityKw = 0;
  for (const system of systems) {
    statuses.set(system.id, systemStatus(system, daylight, now));
    if (isFresh(system, now)) currentPowerW += system.powerW ?? 0;
    // Yesterday's last counter is not today's energy.
    if (system.dataTime !== null && system.dataTime >= midnight) todayEnergyWh += system.energyTodayWh ?? 0;
    if (system.dataTime !== null) lastUpdateMs = Math.max(lastUpdateMs ?? 0, system.dataTime);
    systemsCapacityKw += kw(system.capacityW) ?? 0;
  }
  const values = [...statuses.values()];
  const onlineCount = values.filter((s) => s === "online").length;
  const status: SiteStatus = values.includes("alarm") ? "fault" : onlineCount > 0 ? "online" : "offline";
  return {
    status,
    statuses,
    currentPowerW,
    todayEnergyWh,
    lastUpdateMs,
    onlineCount,
    systemsCapacityKw,
    capacityKw: site.capacityKw ?? systemsCapacityKw,
  };
}

export function toSite(row: SiteRow, systems: SystemView[], live: SiteLive): Site {
  const providers = [...new Set(systems.map((s) => s.provider))];
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    location: row.location ?? row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    city: row.city,
    state: row.state,
    country: row.country,
    timezone: row.timezone,
    locationSource: row.locationSource,
    provider: row.provider ?? providers[0] ?? null,
    providers,
    capacity: live.capacityKw,
    capacitySource: row.capacityKw === null ? "systems" : "manual",
    acLimitKw: row.acLimitKw,
    tiltDeg: row.tiltDeg,
    azimuthDeg: row.azimuthDeg,
    estimatedYield: row.estimatedYieldKwh,
    status: live.status,
    currentPower: live.currentPowerW,
    todayGeneration: live.todayEnergyWh,
    lastUpdate: iso(live.lastUpdateMs),
    isActive: row.isActive,
    label: row.label,
    systemCount: systems.length,
    onlineSystemCount: live.onlineCount,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function toSiteSystem(
  system: SystemView,
  status: SystemState,
  site: SiteRow,
  systemCount: number,
): SiteSystem {
  return {
    id: system.id,
    systemName: system.name,
    provider: system.provider,
    providerId: system.providerSystemId,
    capacity: kw(system.capacityW),
    systemType: SYSTEM_TYPE,
    state: system.state,
    status,
    currentPowerW: system.powerW,
    todayEnergyWh: system.energyTodayWh,
    dataTime: iso(system.dataTime),
    inverterCount: system.inverterCount,
    orientation: effectiveOrientation({
      system,
      site: { ...site, systemCount },
      invertersRatedW: system.invertersRatedW,
    }),
  };
}

export function toEnhancedSite(row: SiteRow, systems: SystemView[], now: number): EnhancedSite {
  const live = siteLive(row, systems, now);
  return {
    ...toSite(row, systems, live),
    totalCapacity: live.capacityKw,
    systems: systems.map((s) => toSiteSystem(s, live.statuses.get(s.id) ?? s.state, row, systems.length)),
  };
}

export function toAvailableSystem(system: SystemView): AvailableSystem {
  return {
    id: system.id,
    name: system.name,
    provider: system.provider,
    providerId: system.providerSystemId,
    capacity: kw(system.capacityW),
    type: SYSTEM_TYPE,
    location: system.address,
    latitude: system.latitude,
    longitude: system.longitude,
    state: system.state,
    currentPowerW: system.powerW,
    dataTime: iso(system.dataTime),
  };
}
