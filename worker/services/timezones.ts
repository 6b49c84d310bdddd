import type { Timezone } from "../../schema/api/preferences";

/** IANA zones from the runtime's own time-zone data (ICU), never a hand-written list. */
function zoneNames(): string[] {
  const names = Intl.supportedValuesOf("timeZone");
  return names.includes("UTC") ? names : ["UTC", ...names];
}

let zoneSet: Set<string> | undefined;
export function isKnownTimezone(zone: string): boolean {
  zoneSet ??= new Set(zoneNames());
  if (zoneSet.has(zone)) return true;
  // Accept aliases the runtime resolves (e.g. "Asia/Calcutta"), as Intl does.
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
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

export function listTimezones(now: Date): Timezone[] {
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
