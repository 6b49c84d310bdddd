import { DateTime } from "luxon";
import { STALE_AFTER_MS } from "../../domain/fleet-rules";
import { isComputableZone } from "../../domain/timezones";
import { ProviderError } from "../errors";
import { inverterFollowingPlant } from "../known";
import type { KnownInverter, KnownSystem, NormalisedInverter, NormalisedSystem, SystemState } from "../types";
import type { SmaAddress, SmaDevice, SmaPlant, SmaPvSeries } from "./schemas";

/** How far ahead of our clock a vendor time may be (clock skew) when resolving a repeated hour. */
const CLOCK_SKEW_MS = 15 * 60_000;
export const BUCKET_MINUTES: Record<string, number> = {
  OneMinute: 1,
  FiveMinutes: 5,
  FifteenMinutes: 15,
  OneHour: 60,
};
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

export function assertKnownZone(zone: string, plantId: string): void {
  if (!isComputableZone(zone)) {
    throw new ProviderError("malformed", `SMA plant ${plantId} has an unknown time zone "${zone}"`);
  }
}

/**
 * SMA's times are the plant's wall-clock times without an offset. They are converted from the
 * newest backwards: each takes the latest of its possible instants that is not after the one that
 * follows it (the newest: not after now). That resolves the hour that occurs twice when summer
 * time ends, which a plain conversion would put an hour off.
 */
export function plantLocalTimesToUtcMs(times: readonly string[], zone: string, nowMs: number): number[] {
  const result = new Array<number>(times.length);
  let notAfter = nowMs + CLOCK_SKEW_MS;
  for (let i = times.length - 1; i >= 0; i--) {
    const time = times[i] ?? "";
    const parsed = HAS_OFFSET.test(time)
      ? DateTime.fromISO(time, { setZone: true })
      : DateTime.fromISO(time, { zone });
    if (!parsed.isValid) throw new ProviderError("malformed", `SMA sent an unreadable time "${time}"`);
    const candidates = HAS_OFFSET.test(time)
      ? [parsed.toMillis()]
      : parsed
          .getPossibleOffsets()
          .map((dt) => dt.toMillis())
          .sort((a, b) => a - b);
    const fitting = candidates.filter((ms) => ms <= notAfter);
    const ms = fitting.at(-1) ?? candidates[0] ?? parsed.toMillis();
    result[i] = ms;
    notAfter = ms - 1;
  }
  return result;
}

/** The plant's calendar date at `nowMs`, as SMA's `Date` parameter wants it (YYYY-MM-DD). */
export function plantLocalDate(nowMs: number, zone: string): string {
  return DateTime.fromMillis(nowMs, { zone }).toISODate() ?? "";
}

export interface PvReading {
  powerW: number;
  dataTime: number;
}

/** The newest non-empty value of a Recent series (W), with its time in UTC ms. */
export function latestReading(series: SmaPvSeries, zone: string, nowMs: number): PvReading | null {
  const times = plantLocalTimesToUtcMs(
    series.set.map((point) => point.time),
    zone,
    nowMs,
  );
  for (let i = series.set.length - 1; i >= 0; i--) {
    const value = series.set[i]?.pvGeneration;
    const dataTime = times[i];
    if (value !== null && value !== undefined && dataTime !== undefined) return { powerW: value, dataTime };
  }
  return null;
}

/**
 * A reading older than the fleet's staleness limit is no current power: it keeps its time (so the
 * system shows stale) but not its value, which would pass for live. SMA reports no device status.
 */
const isCurrent = (reading: PvReading | null, nowMs: number): reading is PvReading =>
  reading !== null && nowMs - reading.dataTime <= STALE_AFTER_MS;

/** The reading's power while it is current (PV generation: a standby draw is no negative output). */
const livePowerW = (reading: PvReading | null, nowMs: number) =>
  isCurrent(reading, nowMs) ? Math.max(0, reading.powerW) : null;

/**
 * Energy of a Day series asked with ReturnEnergyValues (Wh per bucket). A new device's first
 * bucket can be absurd (1,024,843 Wh has been seen), so each bucket is capped at what the
 * connected PV generator can produce in one bucket.
 */
export function energyFromBucketsWh(series: SmaPvSeries, generatorPowerW: number | null): number {
  const bucketMinutes = BUCKET_MINUTES[series.resolution ?? ""] ?? 5;
  const capWh =
    generatorPowerW !== null && generatorPowerW > 0 ? (generatorPowerW * bucketMinutes) / 60 : Infinity;
  let energyWh = 0;
  for (const point of series.set) {
    if (point.pvGeneration !== null && point.pvGeneration > 0)
      energyWh += Math.min(point.pvGeneration, capWh);
  }
  return Math.round(energyWh);
}

/**
 * SMA's documented endpoints carry no device status, so the state is read from production: a
 * current reading above zero is online, anything else offline. Faults cannot be told apart.
 */
export function inverterState(reading: PvReading | null, nowMs: number): SystemState {
  return (livePowerW(reading, nowMs) ?? 0) > 0 ? "online" : "offline";
}

export function formatAddress(address: SmaAddress | null | undefined): string | null {
  if (!address) return null;
  const clean = (...parts: (string | null | undefined)[]) =>
    parts
      .map((part) => part?.trim() ?? "")
      .filter(Boolean)
      .join(" ");
  const text = [
    clean(address.street, address.streetNo),
    clean(address.zipCode, address.city),
    clean(address.country),
  ]
    .filter(Boolean)
    .join(", ");
  return text || null;
}

export interface InverterReadings {
  reading: PvReading | null;
  energyTodayWh: number | null;
}

/** A device of the lean list as the product stores it. */
export function toKnownInverter(device: SmaDevice): KnownInverter {
  return {
    providerInverterId: device.deviceId,
    serial: device.serial || null,
    model: device.product || null,
    // The PV generator power SMA records for the device: the lean list names no other rating.
    ratedPowerW: device.generatorPower ?? null,
  };
}

export function normaliseInverter(
  inverter: KnownInverter,
  readings: InverterReadings,
  nowMs: number,
): NormalisedInverter {
  return {
    ...inverter,
    state: inverterState(readings.reading, nowMs),
    powerW: livePowerW(readings.reading, nowMs),
    energyTodayWh: readings.energyTodayWh,
    // Lifetime energy would cost another call per inverter (the Total period); not read.
    energyTotalWh: null,
    // Needs a further measurement set per inverter; not read to spare the call budget.
    temperatureC: null,
    dataTime: readings.reading?.dataTime ?? null,
  };
}

function sumOrNull(values: (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length > 0 ? present.reduce((sum, value) => sum + value, 0) : null;
}

/** What the plant detail says of a plant, in the product's terms. */
export function describePlant(plant: SmaPlant): Omit<KnownSystem, "inverters"> {
  const address = plant.location?.address;
  return {
    providerSystemId: plant.plantId,
    name: plant.name,
    address: formatAddress(address),
    latitude: address?.latitude ?? null,
    longitude: address?.longitude ?? null,
    timezone: plant.timezone,
    capacityW: plant.installation?.peakPower ?? null,
  };
}

/**
 * A plant read through its plant-level data sets: its own power and energy; its inverters, whose
 * values are not read, follow the plant's state.
 */
export function systemFromPlantSet(
  plant: KnownSystem,
  readings: InverterReadings,
  nowMs: number,
): NormalisedSystem {
  const { inverters, ...described } = plant;
  const state = inverterState(readings.reading, nowMs);
  const dataTime = readings.reading?.dataTime ?? null;
  return {
    ...described,
    state,
    powerW: livePowerW(readings.reading, nowMs),
    energyTodayWh: readings.energyTodayWh,
    energyTotalWh: null,
    dataTime,
    inverters: inverters.map((inverter) => inverterFollowingPlant(inverter, state, dataTime)),
  };
}

/** A plant read device by device (one that offers no plant-level data set): the sums of its inverters. */
export function systemFromInverters(
  plant: Omit<KnownSystem, "inverters">,
  inverters: NormalisedInverter[],
): NormalisedSystem {
  const dataTimes = inverters.map((inverter) => inverter.dataTime).filter((t): t is number => t !== null);
  return {
    ...plant,
    state: inverters.some((inverter) => inverter.state === "online") ? "online" : "offline",
    powerW: sumOrNull(inverters.map((inverter) => inverter.powerW)),
    energyTodayWh: sumOrNull(inverters.map((inverter) => inverter.energyTodayWh)),
    energyTotalWh: null,
    dataTime: dataTimes.length > 0 ? Math.max(...dataTimes) : null,
    inverters,
  };
}
