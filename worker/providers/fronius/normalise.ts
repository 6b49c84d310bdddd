import { DateTime } from "luxon";
import { isComputableZone } from "../../domain/timezones";
import { ProviderError } from "../errors";
import type { AlertSeverity, KnownInverter, NormalisedAlarm } from "../types";
import type { FroniusChannel, FroniusDevice, FroniusMessage, FroniusPvSystem } from "./schemas";

const POWER_FACTORS: Record<string, number> = { w: 1, kw: 1000, mw: 1_000_000 };
const ENERGY_FACTORS: Record<string, number> = { wh: 1, kwh: 1000, mwh: 1_000_000 };

function scaled(channel: FroniusChannel | undefined, factors: Record<string, number>, fallbackUnit: string) {
  const value = unrounded(channel, factors, fallbackUnit);
  return value === null ? null : Math.round(value);
}

function unrounded(
  channel: FroniusChannel | undefined,
  factors: Record<string, number>,
  fallbackUnit: string,
) {
  if (!channel || channel.value === null) return null;
  const unit = (channel.unit ?? fallbackUnit).toLowerCase();
  const factor = factors[unit];
  if (factor === undefined) {
    throw new ProviderError(
      "malformed",
      `Solar.web sent ${channel.channelName} in an unknown unit "${unit}"`,
    );
  }
  return channel.value * factor;
}

export function channel(channels: FroniusChannel[] | null | undefined, name: string) {
  return channels?.find((candidate) => candidate.channelName === name);
}

/** Solar.web documents power in W; a kW unit string is honoured should one ever appear. */
export const powerW = (value: FroniusChannel | undefined) => scaled(value, POWER_FACTORS, "W");
export const energyWh = (value: FroniusChannel | undefined) => scaled(value, ENERGY_FACTORS, "Wh");
/** Unrounded: a 5-minute bucket holds a few Wh, and whole Wh per bucket would skew power and day sums. */
export const exactEnergyWh = (value: FroniusChannel | undefined) => unrounded(value, ENERGY_FACTORS, "Wh");

/** The system's IANA zone (either casing), or null when missing or unknown to the runtime. */
export function systemZone(system: FroniusPvSystem): string | null {
  const zone = system.timeZone ?? system.timezone;
  return zone && isComputableZone(zone) ? zone : null;
}

/** ISO-8601 times; flowdata asked with timezone=zulu ends in Z. A time without an offset is read as UTC. */
export function utcMillis(text: string | null | undefined): number | null {
  if (!text) return null;
  const parsed = DateTime.fromISO(text, { zone: "utc" });
  return parsed.isValid ? parsed.toMillis() : null;
}

export function formatAddress(system: FroniusPvSystem): string | null {
  const address = system.address;
  if (!address) return null;
  const place = [address.zipCode, address.city].filter(Boolean).join(" ");
  const parts = [address.street, place, address.state, address.country].filter((part) => part);
  return parts.length > 0 ? parts.join(", ") : null;
}

export function severity(stateSeverity: string | null): AlertSeverity {
  const level = stateSeverity?.toLowerCase() ?? "";
  if (level === "error" || level === "critical" || level === "fatal") return "critical";
  if (level === "warning") return "warning";
  return "info";
}

export function toAlarm(systemId: string, message: FroniusMessage, now: number): NormalisedAlarm {
  const code = message.stateCode;
  const title = message.text ?? `${message.stateType ?? "State"} ${code ?? ""}`.trim();
  return {
    providerAlarmId: `${systemId}:${code ?? "-"}:${message.logDateTime}`,
    providerSystemId: systemId,
    // The message shape carries no device reference (as far as is known).
    deviceSerial: null,
    code,
    title,
    message: [message.stateType, code ? `code ${code}` : null, message.text].filter(Boolean).join(" · "),
    severity: severity(message.stateSeverity),
    startedAt: utcMillis(message.logDateTime) ?? now,
    endedAt: null,
  };
}

/**
 * Inverters from the device list. Per-device live values (device flowdata/aggrdata) are billed
 * per response, so they are not fetched: an inverter's power and energy stay null, and its state
 * follows the system's connection.
 */
export function toInverter(device: FroniusDevice): KnownInverter {
  return {
    providerInverterId: device.deviceId,
    serial: device.serialnumber,
    model: device.deviceTypeDetails ?? device.deviceName,
    ratedPowerW: device.nominalAcPower,
  };
}

export const isActiveInverter = (device: FroniusDevice) =>
  device.deviceType.toLowerCase() === "inverter" && device.isActive !== false;
