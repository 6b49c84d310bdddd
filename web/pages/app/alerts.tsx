import { RiShieldCheckLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { AlertFilters } from "../../components/alerts/alert-filters";
import { AlertItem } from "../../components/alerts/alert-item";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { useCurrentProfile } from "../../components/profile-context";
import { Pager, SearchBox } from "../../components/site-lists/list-controls";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { ExportButton } from "../../components/ui/export-button";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { formatCount, localeFor } from "../../lib/format";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { actorFromProfile } from "../../lib/permissions";
import {
  ALERTS_PER_PAGE,
  type AlertsSearch,
  alertSummaryQueryOptions,
  alertsPageQueryOptions,
  alertsPath,
  type AlertFilters as Filters,
} from "../../lib/queries/alerts";
import { usersQueryOptions } from "../../lib/queries/members";

/**
 * Alerts a page at a time (most energy lost first unless ordered otherwise), searched and
 * filtered by the server; the filters, search and page live in the URL.
 */
export function AlertsPage({
  search,
  onSearch,
}: {
  search: AlertsSearch;
  onSearch: (next: AlertsSearch) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const profile = useCurrentProfile();
  const canManage = can(actorFromProfile(profile), "alerts:manage");
  useFleetListsStrings();
  const { page = 1, ...filters } = search;
  const setFilters = (next: Filters) => onSearch({ ...next, page: undefined });
  const alertsQuery = useQuery(alertsPageQueryOptions(filters, page));
  // Who an alert can be assigned to; a manager without the users area sees no picker.
  const members = useQuery({ ...usersQueryOptions(), enabled: canManage }).data;
  const summary = useQuery(alertSummaryQueryOptions()).data;
  const alerts = alertsQuery.data?.items ?? [];
  const total = alertsQuery.data?.total ?? 0;
  const unfiltered = filters.state === "open" && filters.severity === undefined && !filters.q;

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
        <SearchBox
          value={filters.q ?? ""}
          label={t("fleetLists.searchAlerts")}
          onSearch={(q) => setFilters({ ...filters, q: q || undefined })}
        />
        {alertsQuery.data ? (
          <p className="text-tremor-default text-tremor-content" aria-live="polite">
            {t("fleetLists.matchingAlerts", { count: total, formatted: formatCount(total, locale) })}
          </p>
        ) : null}
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
          <>
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
            <Pager
              page={page}
              pageCount={Math.max(1, Math.ceil(total / ALERTS_PER_PAGE))}
              onPage={(next) => onSearch({ ...filters, page: next > 1 ? next : undefined })}
            />
          </>
        )}
      </div>
    </>
  );
}
