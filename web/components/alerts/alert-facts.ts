import { useTranslation } from "react-i18next";
import type { Alert, AlertFacts } from "../../../schema/api/alerts";
import { formatDateTime } from "../../lib/format";

/**
 * How an alert reads in the reader's language, times in their zone: Sunfleet's own alerts are
 * headed by their rule's name and say their facts (what the API's English `title`, `message` and
 * history notes say); a vendor's alarm keeps the vendor's title and text.
 */
export function useAlertWording(locale: string, timeZone: string | undefined) {
  const { t } = useTranslation();
  const since = (iso: string) => formatDateTime(iso, { locale, timeZone });
  /** A rule's facts as a sentence; null for entries without facts (vendor alarms, members' notes). */
  const facts = (facts: AlertFacts | null): string | null => {
    if (facts === null) return null;
    switch (facts.kind) {
      case "no_data":
        return t("fleet.alerts.facts.no_data", {
          since: since(facts.since),
          minutes: facts.daylightMinutes,
        });
      case "no_production":
        return t("fleet.alerts.facts.no_production", {
          since: since(facts.since),
          pct: facts.thresholdPct,
        });
      case "below_expected":
        return t("fleet.alerts.facts.below_expected", {
          pct: facts.actualPct,
          minutes: facts.windowMinutes,
        });
      case "inverter_down":
        return t("fleet.alerts.facts.inverter_down", { serial: facts.serial, since: since(facts.since) });
      case "severity_changed":
        return t("fleet.alerts.facts.severity_changed", {
          from: t(`fleet.alerts.severity.${facts.from}`),
          to: t(`fleet.alerts.severity.${facts.to}`),
        });
      case "condition_gone":
        return t("fleet.alerts.facts.condition_gone");
    }
  };
  return {
    facts,
    /** An alert's (or a notification's) heading: its rule's name, or the vendor's title. */
    heading: (item: { rule: Alert["rule"] | null; title: string }) =>
      item.rule === null || item.rule === "vendor_alarm"
        ? item.title
        : t(`fleet.alerts.ruleNames.${item.rule}`),
    text: (alert: Alert) => facts(alert.facts) ?? alert.message,
  };
}
