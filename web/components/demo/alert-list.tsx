import { useTranslation } from "react-i18next";
import { DEMO_TIME_ZONE, type DemoAlert } from "../../lib/demo/simulation";
import { localeFor } from "../../lib/format";
import { SeverityBadge, severityColors } from "./demo-badges";

const borders = { red: "border-l-red-500", amber: "border-l-amber-500", blue: "border-l-blue-500" } as const;

export function DemoAlertList({ alerts }: { alerts: DemoAlert[] }) {
  const { t, i18n } = useTranslation();
  const clock = new Intl.DateTimeFormat(localeFor(i18n.language), {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: DEMO_TIME_ZONE,
  });
  if (alerts.length === 0) {
    return (
      <div className="py-4 text-center">
        <p className="font-medium text-tremor-content-strong">{t("insights.demo.noAlertsTitle")}</p>
        <p className="text-tremor-default text-tremor-content">{t("insights.demo.noAlertsBody")}</p>
      </div>
    );
  }
  return (
    <ul className="space-y-2">
      {alerts.map((alert) => (
        <li
          key={alert.id}
          className={`rounded-tremor-small border border-l-4 border-tremor-border bg-tremor-background px-3 py-2 ${borders[severityColors[alert.severity]]}`}
        >
          <div className="flex items-center justify-between gap-2">
            <SeverityBadge severity={alert.severity} />
            <span className="text-tremor-label text-tremor-content">{clock.format(alert.at)}</span>
          </div>
          <p className="mt-1 text-tremor-default text-tremor-content-strong">
            {t(`insights.demo.alerts.${alert.kind}`, { inverter: alert.inverter, value: alert.value })}
          </p>
          <p className="text-tremor-label text-tremor-content">{alert.siteName}</p>
        </li>
      ))}
    </ul>
  );
}
