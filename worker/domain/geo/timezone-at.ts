import tzlookup from "@photostructure/tz-lookup";
import { isComputableZone } from "../timezones";

/** The IANA zone at the coordinates (tz-lookup's boundary data); UTC if it names none luxon knows. */
export function timezoneAt(latitude: number, longitude: number): string {
  try {
    const zone = tzlookup(latitude, longitude);
    return isComputableZone(zone) ? zone : "UTC";
  } catch {
    return "UTC";
  }
}
