import { IANAZone } from "luxon";

/**
 * Zone names found valid. Checking one builds an Intl formatter, and a listing checks one per
 * plant (20,000 for the largest accounts, a dozen distinct zones); only valid names are kept, so
 * the set stays within the zone database whatever a vendor or a form sends.
 */
const validZones = new Set<string>();

/** Whether the runtime knows the IANA zone `zone`. */
export function isKnownZone(zone: string): boolean {
  if (validZones.has(zone)) return true;
  const valid = IANAZone.isValidZone(zone);
  if (valid) validZones.add(zone);
  return valid;
}
