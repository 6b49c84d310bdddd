import { DateTime, FixedOffsetZone } from "luxon";
import type { SystemState } from "../types";

/** SolaX energies are kWh; the product's are Wh. */
export const kWhToWh = (kWh: number | null) => (kWh === null ? null : Math.round(kWh * 1000));

/** Inverter status codes, "Appendix 8.1" of the token API (the OpenAPI's deviceStatus uses the same). */
const STATUS_LABELS: Record<string, string> = {
  "100": "waiting",
  "101": "self-test",
  "102": "normal",
  "103": "fault",
  "104": "permanent fault",
  "105": "firmware upgrade",
  "106": "EPS check",
  "107": "EPS (off-grid)",
  "108": "self-test",
  "109": "idle",
  "110": "standby",
  "111": "PV wake-up battery",
  "112": "generator check",
  "113": "generator running",
  "114": "fast-shutdown standby",
};

export const FAULT_STATUSES = new Set(["103", "104"]);
/** Not producing: waiting, checks, upgrade, idle, standby. */
const IDLE_STATUSES = new Set(["100", "101", "105", "106", "108", "109", "110", "112", "114"]);

export const statusLabel = (code: string) => STATUS_LABELS[code] ?? `status ${code}`;

/**
 * 102 normal and the running modes (EPS, generator, 130+ TOU/VPP modes) are online; 103/104
 * faults are alarms; waiting/idle/standby are offline. An unknown code falls back on the power.
 */
export function inverterState(status: string | null, powerW: number | null): SystemState {
  if (status !== null && FAULT_STATUSES.has(status)) return "alarm";
  if (status !== null && IDLE_STATUSES.has(status)) return "offline";
  if (status === "102" || status === "107" || status === "111" || status === "113") return "online";
  if (status !== null && Number(status) >= 130) return "online";
  return powerW !== null && powerW > 0 ? "online" : "offline";
}

/** The worst of several states: any alarm, else any online, else offline. */
export function combinedState(states: SystemState[]): SystemState {
  if (states.includes("alarm")) return "alarm";
  return states.includes("online") ? "online" : "offline";
}

const LOCAL_FORMAT = "yyyy-MM-dd HH:mm:ss";

/** A UTC time ("2024-07-01T10:25:04Z"); a time without an offset is read as UTC. */
export function utcMillis(text: string | null): number | null {
  if (!text) return null;
  const iso = DateTime.fromISO(text, { zone: "utc" });
  if (iso.isValid) return iso.toMillis();
  const local = DateTime.fromFormat(text, LOCAL_FORMAT, { zone: "utc" });
  return local.isValid ? local.toMillis() : null;
}

/** A local wall-clock time ("2024-07-01 12:25:04") in an IANA zone or a fixed offset in minutes. */
export function localMillis(text: string | null, zone: string | number | null): number | null {
  if (!text || zone === null) return null;
  const luxonZone = typeof zone === "number" ? FixedOffsetZone.instance(zone) : zone;
  const parsed = DateTime.fromFormat(text, LOCAL_FORMAT, { zone: luxonZone });
  if (parsed.isValid) return parsed.toMillis();
  const iso = DateTime.fromISO(text, { zone: luxonZone });
  return iso.isValid ? iso.toMillis() : null;
}

/**
 * The plant's UTC offset in minutes, read off one realtime row that carries both its UTC time
 * and the plant's wall clock; rounded to the quarter hour every real offset is a multiple of.
 */
export function offsetMinutes(utcText: string | null, localText: string | null): number | null {
  const utc = utcText ? DateTime.fromISO(utcText, { zone: "utc" }) : null;
  const local = localText ? DateTime.fromFormat(localText, LOCAL_FORMAT, { zone: "utc" }) : null;
  if (!utc?.isValid || !local?.isValid || !/[zZ]|[+-]\d\d:?\d\d$/.test(utcText ?? "")) return null;
  return Math.round(local.diff(utc, "minutes").minutes / 15) * 15;
}
