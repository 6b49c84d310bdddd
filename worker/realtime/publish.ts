import type { ProviderId } from "../../schema/api/providers";
import type { LiveMessage, LiveSystemUpdate } from "../../schema/live";
import { stateNumber } from "../domain/system-state";
import type { NormalisedSystem, ProviderSnapshot } from "../providers/types";

const kWh = (wh: number | null) => (wh === null ? null : Math.round(wh) / 1000);

export interface StoredSystemRef {
  id: string;
  siteId: string | null;
}

export function toLiveUpdate(
  provider: ProviderId,
  system: NormalisedSystem,
  stored: StoredSystemRef,
  snapshot: ProviderSnapshot,
): LiveSystemUpdate {
  const openAlarm = snapshot.alarms?.find(
    (a) => a.providerSystemId === system.providerSystemId && a.endedAt === null,
  );
  const temperatures = system.inverters.map((i) => i.temperatureC).filter((t): t is number => t !== null);
  return {
    systemId: stored.id,
    siteId: stored.siteId,
    provider,
    stationName: system.name,
    stationId: system.providerSystemId,
    pac: system.powerW,
    powerW: system.powerW,
    etoday: kWh(system.energyTodayWh),
    energyTodayWh: system.energyTodayWh,
    etotal: kWh(system.energyTotalWh),
    state: stateNumber(system.state),
    capacityW: system.capacityW,
    inverterCount: system.inverters.length,
    inverters: system.inverters.map((inv) => ({
      id: inv.providerInverterId,
      sn: inv.serial,
      state: stateNumber(inv.state),
      pac: inv.powerW,
      etodayKWh: kWh(inv.energyTodayWh),
      inverterTemperature: inv.temperatureC,
    })),
    acOutputs: null,
    dcInputs: null,
    batteryPower: null,
    batteryCapacity: null,
    batterySoc: null,
    inverterTemperature: temperatures.length > 0 ? Math.max(...temperatures) : null,
    faultMessage: openAlarm?.message ?? null,
    alarmCode: openAlarm?.code ?? null,
    timestamp: new Date(system.dataTime ?? Date.now()).toISOString(),
  };
}

/**
 * A synced system's live message: `solis_realtime_update` for solis (the name the client has
 * always read, docs/product.md), `realtime_update` for every other provider. The fleet store publishes it once the page is stored.
 */
export function liveMessageOf(
  provider: ProviderId,
  system: NormalisedSystem,
  stored: StoredSystemRef,
  snapshot: ProviderSnapshot,
): LiveMessage {
  const data = toLiveUpdate(provider, system, stored, snapshot);
  return provider === "solis" ? { type: "solis_realtime_update", data } : { type: "realtime_update", data };
}
