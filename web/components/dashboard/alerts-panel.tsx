import { RiCheckboxCircleLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { alertSummaryQueryOptions, alertsQueryOptions } from "../../lib/queries/alerts";
import { useAlertWording } from "../alerts/alert-facts";
import { alertSubject } from "../alerts/alert-subject";
import { severityStyles } from "../alerts/severity";
import { SeverityBadge } from "../alerts/severity-badge";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";

/** The panel shows at most 3 alerts. */
export const ALERTS_PANEL_LIMIT = 3;

export function AlertsPanel({ locale, timeZone }: { locale: string; timeZone: string | undefined }) {
  const { t } = useTranslation();
  const wording = useAlertWording(locale, timeZone);
  const alertsQuery = useQuery(alertsQueryOptions({ state: "open" }));
  const summaryQuery = useQuery(alertSummaryQueryOptions());
  const open = alertsQuery.data ?? [];
  const openCount = summaryQuery.data?.open ?? open.length;

  return (
    <Card>
      <Title>{t("fleet.alertsPanel.title")}</Title>
      {alertsQuery.isPending ? (
        <Spinner className="py-8" />
      ) : alertsQuery.isError ? (
        <div className="mt-4">
          <ErrorState
            title={t("fleet.alerts.loadFailed")}
            error={alertsQuery.error}
            onRetry={() => void alertsQuery.refetch()}
          />
        </div>
      ) : open.length === 0 ? (
        <div className="mt-4 flex items-center gap-3 rounded-tremor-default bg-emerald-50 p-4">
          <RiCheckboxCircleLine className="h-6 w-6 text-emerald-600" aria-hidden="true" />
          <div>
            <p className="font-medium text-emerald-800">{t("fleet.alertsPanel.allOperational")}</p>
            <p className="text-tremor-label text-emerald-700">{t("fleet.alertsPanel.noActive")}</p>
          </div>
        </div>
      ) : (
        <ul className="mt-4 space-y-3" aria-label={t("fleet.alertsPanel.title")}>
          {open.slice(0, ALERTS_PANEL_LIMIT).map((alert) => {
            const subject = alertSubject(alert);
            return (
              <li
                key={alert.id}
                className={`rounded-tremor-default border border-l-4 border-tremor-border p-3 ${severityStyles[alert.severity].border}`}
              >
                <div className="flex items-start justify-between gap-2">
                  <p className="font-medium text-tremor-content-strong">{wording.heading(alert)}</p>
                  <SeverityBadge severity={alert.severity} />
                </div>
                <p className="mt-1 text-tremor-default text-tremor-content-emphasis">{wording.text(alert)}</p>
                <p className="mt-1 text-tremor-label text-tremor-content">
                  {subject ? `${subject} · ` : ""}
                  {formatDateTime(alert.createdAt, { locale, timeZone })}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      {openCount > ALERTS_PANEL_LIMIT ? (
        <Link
          to="/app/alerts"
          className="mt-4 inline-block text-tremor-default font-medium text-tremor-brand hover:text-tremor-brand-emphasis"
        >
          {t("fleet.alertsPanel.viewAll", { n: openCount })}
        </Link>
      ) : null}
    </Card>
  );
}
