import { Badge, Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { Alert } from "../../../schema/api/alerts";
import { errorDescription } from "../../lib/error-messages";
import { formatDateTime } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useResolveAlertMutation } from "../../lib/queries/alerts";
import { alertSubject } from "./alert-subject";
import { severityStyles } from "./severity";
import { SeverityBadge } from "./severity-badge";

interface AlertItemProps {
  alert: Alert;
  /** Whether the reader may resolve and reopen (orgOwner, orgEngineer). */
  canManage: boolean;
  locale: string;
  timeZone: string | undefined;
}

export function AlertItem({ alert, canManage, locale, timeZone }: AlertItemProps) {
  const { t } = useTranslation();
  const mutation = useResolveAlertMutation();
  const when = (value: string) => formatDateTime(value, { locale, timeZone });
  const subject = alertSubject(alert);

  const toggle = () =>
    mutation.mutate(
      { alertId: alert.id, resolved: !alert.resolved },
      {
        onSuccess: () =>
          toast.success(alert.resolved ? t("fleet.alerts.reopened") : t("fleet.alerts.resolvedToast"), {
            description: alert.title,
          }),
        onError: (error) =>
          toast.error(t("fleet.alerts.updateFailed"), {
            description: errorDescription(error, t("fleet.alerts.updateFailedDefault")),
          }),
      },
    );

  return (
    <li
      aria-label={alert.title}
      className={`rounded-tremor-default border border-l-4 border-tremor-border bg-tremor-background p-4 shadow-tremor-card ${severityStyles[alert.severity].border}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <SeverityBadge severity={alert.severity} />
            {alert.resolved ? (
              <Badge color="gray" size="xs">
                {t("fleet.alerts.resolvedBadge")}
              </Badge>
            ) : null}
            <h2 className="font-semibold text-tremor-content-strong">{alert.title}</h2>
          </div>
          <p className="mt-1 text-tremor-default text-tremor-content-emphasis">{alert.message}</p>
          <p className="mt-2 text-tremor-label text-tremor-content">
            {subject ?? t("fleet.alerts.noSystem")}
            {alert.provider ? ` · ${providerNames[alert.provider]}` : ""}
            {alert.code ? ` · ${t("fleet.alerts.code", { code: alert.code })}` : ""}
          </p>
          <p className="text-tremor-label text-tremor-content">
            {t("fleet.alerts.raised", { time: when(alert.createdAt) })}
            {alert.resolved && alert.resolvedAt
              ? ` · ${t("fleet.alerts.resolvedAt", { time: when(alert.resolvedAt) })}`
              : ""}
          </p>
        </div>
        {canManage ? (
          <Button
            size="xs"
            variant="secondary"
            loading={mutation.isPending}
            onClick={toggle}
            aria-label={
              alert.resolved
                ? t("fleet.alerts.reopenLabel", { title: alert.title })
                : t("fleet.alerts.resolveLabel", { title: alert.title })
            }
          >
            {alert.resolved ? t("fleet.alerts.reopen") : t("fleet.alerts.resolve")}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
