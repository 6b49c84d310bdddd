import { RiShieldCheckLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { AlertFilters } from "../../components/alerts/alert-filters";
import { AlertItem } from "../../components/alerts/alert-item";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { useCurrentProfile } from "../../components/profile-context";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { ExportButton } from "../../components/ui/export-button";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { formatCount, localeFor } from "../../lib/format";
import { useAlertingStrings } from "../../lib/i18n/alerting";
import { actorFromProfile } from "../../lib/permissions";
import {
  alertSummaryQueryOptions,
  alertsPath,
  alertsQueryOptions,
  type AlertFilters as Filters,
} from "../../lib/queries/alerts";
import { usersQueryOptions } from "../../lib/queries/members";

export function AlertsPage() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const profile = useCurrentProfile();
  const canManage = can(actorFromProfile(profile), "alerts:manage");
  useAlertingStrings();
  const [filters, setFilters] = useState<Filters>({ state: "open", sort: "lostEnergy" });
  const alertsQuery = useQuery(alertsQueryOptions(filters));
  // Who an alert can be assigned to; a manager without the users area sees no picker.
  const members = useQuery({ ...usersQueryOptions(), enabled: canManage }).data;
  const summary = useQuery(alertSummaryQueryOptions()).data;
  const alerts = alertsQuery.data ?? [];
  const unfiltered = filters.state === "open" && filters.severity === undefined;

  return (
    <>
      <PageHeader
        title={t("pages.alerts")}
        description={
          summary
            ? t("fleet.alerts.summary", {
                open: formatCount(summary.open, locale),
                critical: formatCount(summary.critical, locale),
                warning: formatCount(summary.warning, locale),
                info: formatCount(summary.info, locale),
              })
            : t("alerts.subtitle")
        }
        actions={<ExportButton path={alertsPath(filters)} />}
      />
      <div className="space-y-6">
        <AlertFilters filters={filters} onChange={setFilters} />
        {alertsQuery.isPending ? (
          <Spinner label={t("fleet.alerts.loading")} className="py-12" />
        ) : alertsQuery.isError ? (
          <ErrorState
            title={t("fleet.alerts.loadFailed")}
            error={alertsQuery.error}
            onRetry={() => void alertsQuery.refetch()}
          />
        ) : alerts.length === 0 ? (
          unfiltered ? (
            <EmptyState
              icon={RiShieldCheckLine}
              title={t("alerts.emptyTitle")}
              description={t("alerts.emptyBody")}
            >
              <PlaceholderLinks />
            </EmptyState>
          ) : (
            <EmptyState
              icon={RiShieldCheckLine}
              title={t("fleet.alerts.noMatchTitle")}
              description={t("fleet.alerts.noMatchBody")}
            />
          )
        ) : (
          <ul className="space-y-3" aria-label={t("fleet.alerts.listLabel")}>
            {alerts.map((alert) => (
              <AlertItem
                key={alert.id}
                alert={alert}
                canManage={canManage}
                members={members}
                locale={locale}
                timeZone={timeZone}
              />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
