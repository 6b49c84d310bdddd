import type { AlertFacts } from "../../../schema/api/alerts";

const hhmm = (iso: string) => iso.slice(11, 16);

/**
 * A rule's facts in English, for `message`, history notes, exports and API readers; screens word
 * the same facts in the reader's language and zone (web/lib/alert-facts.ts).
 */
export function factsText(facts: AlertFacts): string {
  switch (facts.kind) {
    case "no_data":
      return `No data since ${hhmm(facts.since)} UTC (${facts.daylightMinutes} min of daylight)`;
    case "no_production":
      return `Below ${facts.thresholdPct} % of capacity since ${hhmm(facts.since)} UTC under irradiance`;
    case "below_expected":
      return `${facts.actualPct} % of expected energy over the last ${facts.windowMinutes} min`;
    case "inverter_down":
      return `Inverter ${facts.serial} produces nothing since ${hhmm(facts.since)} UTC while the others produce`;
    case "severity_changed":
      return `Severity ${facts.from} → ${facts.to}`;
    case "condition_gone":
      return "Condition gone";
  }
}
