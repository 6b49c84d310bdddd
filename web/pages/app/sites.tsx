import { RiAddLine, RiMapPinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@tremor/react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { useCurrentProfile } from "../../components/profile-context";
import { Pager } from "../../components/site-lists/list-controls";
import { type SearchPatch, SiteFilters } from "../../components/site-lists/site-filters";
import { SiteGroups } from "../../components/site-lists/site-groups";
import { SiteViewSwitch } from "../../components/site-lists/view-switch";
import { AddSiteDialog } from "../../components/sites/add-site-dialog";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { SiteCard } from "../../components/sites/site-card";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { formatCount, localeFor } from "../../lib/format";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { actorFromProfile } from "../../lib/permissions";
import { siteCountsQueryOptions, sitesPageQueryOptions } from "../../lib/queries/site-lists";
import type { SiteListSearch } from "../../lib/site-list-search";

const PER_PAGE = 48;

/** The map and its land outlines load only when the map is shown. */
const FleetMapView = lazy(() =>
  import("../../components/site-lists/fleet-map-view").then((module) => ({ default: module.FleetMapView })),
);

/**
 * Solar Sites: the fleet a page at a time, worst performance first unless ordered otherwise,
 * searched and filtered by the server, with counts per status; or grouped with each group's
 * totals. What is shown lives in the URL.
 */
export function SitesPage({
  search,
  onSearch,
}: {
  search: SiteListSearch;
  onSearch: (patch: SearchPatch) => void;
}) {
  const { t, i18n } = useTranslation();
  useFleetListsStrings();
  const locale = localeFor(i18n.language);
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const canManage = can(actor, "sites:manage");
  const [adding, setAdding] = useState(false);
  const view = search.view ?? "list";
  const sitesQuery = useQuery({
    ...sitesPageQueryOptions(search, PER_PAGE),
    enabled: canRead && view === "list",
  });
  const counts = useQuery({ ...siteCountsQueryOptions(search), enabled: canRead }).data;
  const filtered = Object.keys(search).some((key) => !["sort", "page", "view", "group"].includes(key));
  const total = sitesQuery.data?.total ?? counts?.total;
  const page = search.page ?? 1;

  const addButton = canManage ? (
    <Button icon={RiAddLine} onClick={() => setAdding(true)}>
      {t("sites.add.open")}
    </Button>
  ) : null;
  const emptyFleet = !filtered && sitesQuery.data?.total === 0;

  let body = null;
  if (view === "groups") {
    body = <SiteGroups search={search} onChange={onSearch} />;
  } else if (view === "map") {
    body = (
      <Suspense fallback={<Spinner label={t("fleetLists.map.loading")} className="py-16" />}>
        <FleetMapView search={search} />
      </Suspense>
    );
  } else if (sitesQuery.isPending) {
    body = <Spinner label={t("sites.loading")} className="py-12" />;
  } else if (sitesQuery.isError) {
    body = (
      <ErrorState
        title={t("sites.loadFailed")}
        error={sitesQuery.error}
        onRetry={() => void sitesQuery.refetch()}
      />
    );
  } else if (sitesQuery.data.items.length === 0) {
    body = (
      <EmptyState
        icon={RiMapPinLine}
        title={t("fleetLists.noMatchTitle")}
        description={t("fleetLists.noMatchBody")}
      />
    );
  } else {
    body = (
      <>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy={sitesQuery.isPlaceholderData}>
          {sitesQuery.data.items.map((site) => (
            <li key={site.id} className="flex">
              <SiteCard site={site} />
            </li>
          ))}
        </ul>
        <Pager
          page={page}
          pageCount={Math.max(1, Math.ceil(sitesQuery.data.total / PER_PAGE))}
          onPage={(next) => onSearch({ page: next > 1 ? next : undefined })}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title={t("pages.sites")} description={t("sites.subtitle")} actions={addButton} />
      {!canRead ? (
        <NoOrganisation />
      ) : emptyFleet ? (
        <EmptyState icon={RiMapPinLine} title={t("sites.emptyTitle")} description={t("sites.emptyBody")}>
          {addButton}
          <PlaceholderLinks />
        </EmptyState>
      ) : (
        <div className="space-y-4">
          <SiteFilters search={search} counts={counts} onChange={onSearch} />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-tremor-default text-tremor-content" aria-live="polite">
              {total === undefined
                ? ""
                : t("fleetLists.matching", { count: total, formatted: formatCount(total, locale) })}
            </p>
            <SiteViewSwitch
              view={view}
              onChange={(next) => onSearch({ view: next === "list" ? undefined : next })}
            />
          </div>
          {body}
        </div>
      )}
      {canManage ? <AddSiteDialog open={adding} onClose={() => setAdding(false)} /> : null}
    </>
  );
}
