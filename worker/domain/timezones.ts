import { IANAZone } from "luxon";
import type { Timezone } from "../../schema/api/preferences";

/**
 * ICU (and so `Intl`) keeps some zones under the names they had when CLDR froze its ids; IANA
 * has renamed them since. The list offers the current IANA name, which `Intl` also accepts.
 */
const RENAMED_ZONES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** IANA zones from the runtime's own time-zone data (ICU), never a hand-written list. */
function zoneNames(): string[] {
  const names = Intl.supportedValuesOf("timeZone").map((name) => RENAMED_ZONES[name] ?? name);
  return [...new Set(["UTC", ...names])];
}

let zoneSet: Set<string> | undefined;
/**
 * Whether a preference may hold this zone: a listed name, or the runtime's older name for one
 * (a stored "Asia/Calcutta" stays valid). Exact names only: `Intl` would also take offsets
 * such as "+05:30" and any letter case, which no zone list offers.
 */
export function isKnownTimezone(zone: string): boolean {
  zoneSet ??= new Set([...zoneNames(), ...Intl.supportedValuesOf("timeZone")]);
  return zoneSet.has(zone);
}

/**
 * Zone names the runtime can compute with, found so far. Wider than the listed ones (a vendor may
 * send `Etc/GMT-3` or a link name) and checked by building an Intl formatter, which a listing
 * would do once per plant (20,000 for the largest accounts, a dozen distinct zones); only valid
 * names are kept, so the set stays within the zone database whatever a vendor or a form sends.
 */
const computableZones = new Set<string>();

/** Whether the runtime can compute dates in the IANA zone `zone` (a vendor's or a form's). */
export function isComputableZone(zone: string): boolean {
  if (computableZones.has(zone)) return true;
  const valid = IANAZone.isValidZone(zone);
  if (valid) computableZones.add(zone);
  return valid;
}

/** "UTC+05:30" for the zone's offset at `at` (offsets change with DST). */
export function utcOffset(zone: string, at: Date): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  // ICU prints "GMT" alone for a zero offset.
  const offset = !part || part === "GMT" ? "+00:00" : part.replace("GMT", "");
  return `UTC${offset}`;
}

const offsetMinutes = (offset: string) => {
  const match = /UTC([+-])(\d{2}):(\d{2})/.exec(offset);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
};

/** Offsets change only at DST transitions; a list recomputed every 15 minutes stays right. */
const LIST_TTL_MS = 15 * 60 * 1000;
let cachedList: { builtAt: number; list: Timezone[] } | undefined;

export function listTimezones(now: Date): Timezone[] {
  if (
    cachedList &&
    now.getTime() - cachedList.builtAt >= 0 &&
    now.getTime() - cachedList.builtAt < LIST_TTL_MS
  ) {
    return cachedList.list;
  }
  const list = buildTimezoneList(now);
  cachedList = { builtAt: now.getTime(), list };
  return list;
}

function buildTimezoneList(now: Date): Timezone[] {
  return zoneNames()
    .map((value) => {
      const parts = value.split("/");
      const region = parts.length > 1 ? (parts[0] ?? value) : value === "UTC" ? "UTC" : "Other";
      const place = parts.slice(1).join(" / ").replaceAll("_", " ") || value;
      const offset = utcOffset(value, now);
      return { value, region, offset, label: `${place} (${offset})` };
    })
    .sort(
      (a, b) =>
        a.region.localeCompare(b.region) ||
        offsetMinutes(a.offset) - offsetMinutes(b.offset) ||
        a.value.localeCompare(b.value),
    );
}
