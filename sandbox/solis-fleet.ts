import { DateTime } from "luxon";
import {
  faultDateAt,
  faultWindow,
  hasFaultOn,
  SITES,
  type SimPlant,
  type SimSite,
  simulatedInverterCount,
  simulatedPlant,
  simulatedPlantId,
  simulatedSiteIndex,
  siteDaylight,
  WORLD_SITES,
} from "./simulation";
import { clearSkyIrradiance } from "./sky";

/**
 * One SolisCloud sandbox account's stations, served by index: a station, its id, its inverters'
 * place in the account's inverter list and the account's counts per state are computed for what a
 * call asks, never for the whole account at once, so a page of the 20,000-station account costs
 * what a page of the 3-station one does. Everything is a pure function of the account and the
 * time; what does not depend on the time (ids, inverter counts, the days a plant has a fault) is
 * kept for the account's lifetime.
 */

export interface SolisAccountSpec {
  keyId: string;
  plants: number;
  /** A fleet-scale account: plants spread over the world's zones, one of them silent. */
  world?: true;
}

export interface StateCounts {
  normal: number;
  offline: number;
  fault: number;
}

/** One moment's alarms of the account: plants (ascending) whose fault began at `startsAt`. */
interface AlarmGroup {
  startsAt: number;
  parts: { localDate: string; plants: Int32Array }[];
  merged?: { index: number; localDate: string }[];
}

export interface AlarmIndex {
  total: number;
  groups: AlarmGroup[];
}

const PROVIDER = "solis";
const NONE = new Int32Array(0);
/** Caches keyed by time keep a few entries: the newest data time, and the silent plant's. */
const TIMED_ENTRIES = 8;
/** Fault days kept per account: every zone's days for months of alarm queries. */
const FAULT_DAYS_KEPT = 20_000;

function remember<K, V>(cache: Map<K, V>, key: K, value: V, limit: number): V {
  if (cache.size >= limit) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(key, value);
  return value;
}

/**
 * The plant-local days from `from` (an ISO date read in the zone) up to the day holding `at`, none
 * after `to`: the days an alarm query covers in one zone.
 */
export function alarmDays(zone: string, from: string, to: string, at: number): string[] {
  const days = [];
  const today = DateTime.fromMillis(at, { zone });
  for (let day = DateTime.fromISO(from, { zone }); day <= today; day = day.plus({ days: 1 })) {
    const isoDay = day.toISODate();
    if (!isoDay || isoDay > to) break;
    days.push(isoDay);
  }
  return days;
}

export class SolisFleet {
  readonly size: number;
  readonly sites: readonly SimSite[];
  /** The plant whose logger went quiet yesterday afternoon (the first in Brisbane), or -1. */
  readonly silentIndex: number;
  private readonly keyId: string;
  private readonly built: (SimPlant | undefined)[] = [];
  private readonly ids: (string | undefined)[] = [];
  private byId?: Map<string, number[]>;
  /** offsets[i]: the position of plant i's first inverter in the account's inverter list. */
  private offsets?: Int32Array;
  private siteTotals?: { plants: number; inverters: number }[];
  private bySerial?: Map<string, number[]>;
  private byInverterId?: Map<string, number>;
  private readonly faultDays = new Map<string, Int32Array>();
  private readonly counts = new Map<number, { stations: StateCounts; inverters: StateCounts }>();
  private readonly alarmIndexes = new Map<string, AlarmIndex>();

  constructor(account: SolisAccountSpec) {
    this.keyId = account.keyId;
    this.size = account.plants;
    this.sites = account.world ? WORLD_SITES : SITES;
    // The account's plants take the sites in turn, so the first in Brisbane is among the first few.
    let silent = -1;
    if (account.world) {
      for (let index = 0; index < Math.min(this.size, this.sites.length); index++) {
        if (this.sites[this.siteOf(index)]?.city === "Brisbane") {
          silent = index;
          break;
        }
      }
    }
    this.silentIndex = silent;
  }

  siteOf(index: number): number {
    return simulatedSiteIndex(PROVIDER, this.keyId, index, this.sites);
  }

  /** The first plant at a site; the next ones follow every `sites.length` plants. */
  private firstAt(site: number): number {
    return (site - this.siteOf(0) + this.sites.length) % this.sites.length;
  }

  plant(index: number): SimPlant {
    let plant = this.built[index];
    if (!plant) {
      plant = simulatedPlant(PROVIDER, this.keyId, index, this.sites);
      if (index === this.silentIndex) plant = { ...plant, silentSinceYesterday: true };
      this.built[index] = plant;
    }
    return plant;
  }

  id(index: number): string {
    let id = this.ids[index];
    if (id === undefined) {
      id = this.built[index]?.id ?? simulatedPlantId(PROVIDER, this.keyId, index);
      this.ids[index] = id;
    }
    return id;
  }

  /** The plants with that id, in account order. */
  indicesOf(id: string): number[] {
    if (!this.byId) {
      this.byId = new Map();
      for (let index = 0; index < this.size; index++) {
        const key = this.id(index);
        const found = this.byId.get(key);
        if (found) found.push(index);
        else this.byId.set(key, [index]);
      }
    }
    return this.byId.get(id) ?? [];
  }

  private inverterOffsets(): Int32Array {
    if (!this.offsets) {
      const offsets = new Int32Array(this.size + 1);
      const totals = this.sites.map(() => ({ plants: 0, inverters: 0 }));
      for (let index = 0; index < this.size; index++) {
        const count = simulatedInverterCount(PROVIDER, this.keyId, index);
        offsets[index + 1] = (offsets[index] ?? 0) + count;
        const site = totals[this.siteOf(index)];
        if (site) {
          site.plants++;
          site.inverters += count;
        }
      }
      this.offsets = offsets;
      this.siteTotals = totals;
    }
    return this.offsets;
  }

  get inverterTotal(): number {
    return this.inverterOffsets()[this.size] ?? 0;
  }

  inverterCount(index: number): number {
    const offsets = this.inverterOffsets();
    return (offsets[index + 1] ?? 0) - (offsets[index] ?? 0);
  }

  /** The inverters at positions [start, end) of the account's inverter list (station by station). */
  inverterRange(start: number, end: number): { plant: SimPlant; index: number }[] {
    const offsets = this.inverterOffsets();
    // The last plant whose first inverter is at or before `start`.
    let low = 0;
    let high = this.size - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((offsets[middle] ?? 0) <= start) low = middle;
      else high = middle - 1;
    }
    const records = [];
    for (let plantIndex = low, position = offsets[low] ?? 0; plantIndex < this.size; plantIndex++) {
      const plant = this.plant(plantIndex);
      for (let index = 0; index < plant.inverters.length; index++, position++) {
        if (position >= end) return records;
        if (position >= start) records.push({ plant, index });
      }
    }
    return records;
  }

  /** Every inverter of the account and its serial and id, indexed once (for the detail calls). */
  private inverterIndex() {
    if (!this.bySerial || !this.byInverterId) {
      const bySerial = new Map<string, number[]>();
      const byInverterId = new Map<string, number>();
      const offsets = this.inverterOffsets();
      for (let plantIndex = 0; plantIndex < this.size; plantIndex++) {
        const plant = this.plant(plantIndex);
        for (const [index, inverter] of plant.inverters.entries()) {
          const plants = bySerial.get(inverter.serial);
          if (!plants) bySerial.set(inverter.serial, [plantIndex]);
          else if (plants.at(-1) !== plantIndex) plants.push(plantIndex);
          if (!byInverterId.has(inverter.id))
            byInverterId.set(inverter.id, (offsets[plantIndex] ?? 0) + index);
        }
      }
      this.bySerial = bySerial;
      this.byInverterId = byInverterId;
    }
    return { bySerial: this.bySerial, byInverterId: this.byInverterId };
  }

  /** The plants with an inverter of that serial, in account order. */
  plantsWithSerial(serial: string): number[] {
    return this.inverterIndex().bySerial.get(serial) ?? [];
  }

  /** The first inverter in list order whose id or serial is the one asked for. */
  findInverter(id: string | null, serial: string | null): { plant: SimPlant; index: number } | null {
    const { bySerial, byInverterId } = this.inverterIndex();
    const offsets = this.inverterOffsets();
    const candidates: number[] = [];
    const byId = id === null ? undefined : byInverterId.get(id);
    if (byId !== undefined) candidates.push(byId);
    const firstWithSerial = serial === null ? undefined : bySerial.get(serial)?.[0];
    if (firstWithSerial !== undefined) {
      const plant = this.plant(firstWithSerial);
      const index = plant.inverters.findIndex((inverter) => inverter.serial === serial);
      candidates.push((offsets[firstWithSerial] ?? 0) + index);
    }
    if (candidates.length === 0) return null;
    const position = Math.min(...candidates);
    return this.inverterRange(position, position + 1)[0] ?? null;
  }

  /** The plants of a site with a fault on that plant-local day, ascending; kept for the account. */
  private faultyPlants(site: number, localDate: string): Int32Array {
    const key = `${site}:${localDate}`;
    const cached = this.faultDays.get(key);
    if (cached) return cached;
    const plants = [];
    for (let index = this.firstAt(site); index < this.size; index += this.sites.length) {
      if (hasFaultOn(this.id(index), localDate)) plants.push(index);
    }
    return remember(this.faultDays, key, plants.length ? Int32Array.from(plants) : NONE, FAULT_DAYS_KEPT);
  }

  /**
   * Stations and inverters per state at a data time, as the lists report them: a station is in
   * fault while an inverter is, online while the sun gives an inverter light, offline otherwise
   * (and the silent station always, with its inverters). Per site: one sun position for all its
   * plants (each plant's own near sunrise and sunset) and the site's plants in fault that day.
   */
  stateCounts(at: number): { stations: StateCounts; inverters: StateCounts } {
    const cached = this.counts.get(at);
    if (cached) return cached;
    this.inverterOffsets();
    const stations: StateCounts = { normal: 0, offline: 0, fault: 0 };
    const inverters: StateCounts = { normal: 0, offline: 0, fault: 0 };
    for (const [siteIndex, site] of this.sites.entries()) {
      const totals = this.siteTotals?.[siteIndex];
      if (!totals || totals.plants === 0) continue;
      const faultDate = faultDateAt(site.timezone, at);
      const faulty = faultDate === null ? NONE : this.faultyPlants(siteIndex, faultDate);
      const daylight = siteDaylight(site, at);
      if (daylight !== null) {
        const lit = daylight ? "normal" : "offline";
        stations[lit] += totals.plants;
        inverters[lit] += totals.inverters;
        for (const index of faulty) {
          if (index === this.silentIndex) continue;
          stations[lit]--;
          stations.fault++;
          inverters[lit]--;
          inverters.fault++;
        }
        if (daylight && this.silentIndex >= 0 && this.siteOf(this.silentIndex) === siteIndex) {
          const count = this.inverterCount(this.silentIndex);
          stations.normal--;
          stations.offline++;
          inverters.normal -= count;
          inverters.offline += count;
        }
        continue;
      }
      // Around sunrise and sunset each plant's own sun decides.
      const inFault = new Set(faulty);
      for (let index = this.firstAt(siteIndex); index < this.size; index += this.sites.length) {
        const count = this.inverterCount(index);
        if (index === this.silentIndex) {
          stations.offline++;
          inverters.offline += count;
          continue;
        }
        const plant = this.plant(index);
        const lit = clearSkyIrradiance(plant.latitude, plant.longitude, at) > 0 ? "normal" : "offline";
        if (inFault.has(index)) {
          stations.fault++;
          inverters.fault++;
          inverters[lit] += count - 1;
        } else {
          stations[lit]++;
          inverters[lit] += count;
        }
      }
    }
    return remember(this.counts, at, { stations, inverters }, TIMED_ENTRIES);
  }

  /**
   * The account's alarms for alarmList's date filter at a data time, newest first (plants in
   * account order within one moment), as plant and day: one alarm per plant and day with a fault
   * that has begun. Counted per zone and day, never per plant.
   */
  alarmIndex(from: string, to: string, at: number): AlarmIndex {
    const key = `${at}|${from}|${to}`;
    const cached = this.alarmIndexes.get(key);
    if (cached) return cached;
    this.inverterOffsets();
    const groups = new Map<number, AlarmGroup>();
    let total = 0;
    for (const [siteIndex, site] of this.sites.entries()) {
      if (!this.siteTotals?.[siteIndex]?.plants) continue;
      for (const localDate of alarmDays(site.timezone, from, to, at)) {
        const { startsAt } = faultWindow(site.timezone, localDate);
        if (startsAt > at) continue;
        const plants = this.faultyPlants(siteIndex, localDate);
        if (plants.length === 0) continue;
        total += plants.length;
        const group = groups.get(startsAt);
        if (group) group.parts.push({ localDate, plants });
        else groups.set(startsAt, { startsAt, parts: [{ localDate, plants }] });
      }
    }
    const index = { total, groups: [...groups.values()].sort((a, b) => b.startsAt - a.startsAt) };
    return remember(this.alarmIndexes, key, index, TIMED_ENTRIES);
  }

  /** Alarms [start, end) of an alarm index: each plant and the day its fault fell on. */
  alarmRange(alarms: AlarmIndex, start: number, end: number): { plant: SimPlant; localDate: string }[] {
    const records = [];
    let position = 0;
    for (const group of alarms.groups) {
      const size = group.parts.reduce((sum, part) => sum + part.plants.length, 0);
      if (position + size <= start) {
        position += size;
        continue;
      }
      group.merged ??= group.parts
        .flatMap((part) => Array.from(part.plants, (index) => ({ index, localDate: part.localDate })))
        .sort((a, b) => a.index - b.index);
      for (const member of group.merged) {
        if (position >= end) return records;
        if (position >= start) records.push({ plant: this.plant(member.index), localDate: member.localDate });
        position++;
      }
    }
    return records;
  }
}
