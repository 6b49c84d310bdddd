import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { hasCapacity } from "../../../schema/api/metrics";
import type { ProviderId } from "../../../schema/api/providers";
import { apiFirstProviderIds } from "../../../schema/provider-registry";

/** Kilograms of CO2 a kWh of solar energy avoids, and trees it equals. */
export const CO2_KG_PER_KWH = 0.92;
export const TREES_PER_KWH = 0.045;

/** The list's filter buttons after All: every registered provider, the API ones first. */
export const providerFilters = apiFirstProviderIds;
export type ProviderFilter = "all" | ProviderId;

export function filterByProvider(records: AnalyticsRecord[], filter: ProviderFilter): AnalyticsRecord[] {
  return filter === "all" ? records : records.filter((record) => record.provider === filter);
}

/** A stale or offline system's last power is not its output now (the dashboard's table says so too). */
const isCurrent = (record: Pick<AnalyticsRecord, "status">) =>
  record.status !== "stale" && record.status !== "offline";

/** The power now: none for a stale or offline system. */
export const shownPowerW = (record: Pick<AnalyticsRecord, "status" | "currentPowerW">): number | null =>
  isCurrent(record) ? record.currentPowerW : null;

/** The API's efficiency; none (rather than its 0 %) without a known capacity, or for a stale or offline system. */
export const shownEfficiency = (
  record: Pick<AnalyticsRecord, "capacity" | "efficiency" | "status">,
): number | null => (hasCapacity(record) && isCurrent(record) ? record.efficiency : null);

/** The day's kWh over (capacity × 24 h), in %. */
export function capacityFactorPercent(dayEnergyWh: number, capacityKw: number): number | null {
  if (capacityKw <= 0) return null;
  return (dayEnergyWh / 1000 / (capacityKw * 24)) * 100;
}

/** KWh generated per kW installed. */
export function energyYieldKwhPerKw(energyWh: number, capacityKw: number): number | null {
  if (capacityKw <= 0) return null;
  return energyWh / 1000 / capacityKw;
}

export function co2AvoidedKg(energyWh: number): number {
  return (energyWh / 1000) * CO2_KG_PER_KWH;
}

export function treesEquivalent(energyWh: number): number {
  return (energyWh / 1000) * TREES_PER_KWH;
}

type EnergyDay = NonNullable<AnalyticsRecord["series"]>["energy"][number];

/** Energy over the range: the days with data summed; null when no day has any. */
export function rangeEnergyWh(days: EnergyDay[]): number | null {
  const known = days.filter((day) => day.energyWh !== null);
  if (known.length === 0) return null;
  return known.reduce((sum, day) => sum + (day.energyWh ?? 0), 0);
}

/** Actual over expected energy across the days where both are known; null when nothing was expected. */
export function rangePerformanceRatio(days: EnergyDay[]): number | null {
  let actualWh = 0;
  let expectedWh = 0;
  for (const day of days) {
    if (day.energyWh === null || day.expectedWh === null) continue;
    actualWh += day.energyWh;
    expectedWh += day.expectedWh;
  }
  return expectedWh > 0 ? actualWh / expectedWh : null;
}

/** Numeric system state 1 Online, 3 Alarm, anything else Offline. */
export type StateLabel = "online" | "alarm" | "offline";
export function stateLabel(state: number): StateLabel {
  if (state === 1) return "online";
  if (state === 3) return "alarm";
  return "offline";
}

/** A record's name: its station, system or site name, whichever it carries, else its id. */
export function recordName(record: AnalyticsRecord): string {
  return record.stationName || record.systemName || record.siteName || record.systemId;
}
