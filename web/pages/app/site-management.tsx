import { RiAddLine, RiBuilding4Line, RiMagicLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { useCurrentProfile } from "../../components/profile-context";
import { Pager } from "../../components/site-lists/list-controls";
import { type SearchPatch, SiteFilters } from "../../components/site-lists/site-filters";
import { ManagedSite } from "../../components/sites/managed-site";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { StatCard } from "../../components/ui/stat-card";
import { formatCapacityKw, formatCount, localeFor } from "../../lib/format";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { actorFromProfile } from "../../lib/permissions";
import { enhancedSitesPageQueryOptions, siteCountsQueryOptions } from "../../lib/queries/site-lists";
import { availableSystemsQueryOptions, useSitesFromSystemsMutation } from "../../lib/queries/sites";
import type { SiteListSearch } from "../../lib/site-list-search";
import { toast } from "../../lib/toast";

const PER_PAGE = 20;

/**
 * Site Management: totals, then a page of sites (worst performance first unless ordered
 * otherwise, searched and filtered by the server), each expanding to its systems with their
 * stored live values and data time. What is shown lives in the URL.
 */
export function SiteManagementPage({
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
  const sitesQuery = useQuery({ ...enhancedSitesPageQueryOptions(search, PER_PAGE), enabled: canRead });
  const countsQuery = useQuery({ ...siteCountsQueryOptions(search), enabled: canRead });
  const sites = sitesQuery.data?.items ?? [];
  const counts = countsQuery.data;
  // The matching sites' totals from the server; the page's own when the counts are not there.
  const totalSites = counts?.total ?? sitesQuery.data?.total ?? 0;
  const totalSystems = counts?.systemCount ?? sites.reduce((sum, site) => sum + site.systemCount, 0);
  const totalCapacityKw = counts?.capacityKw ?? sites.reduce((sum, site) => sum + site.totalCapacity, 0);
  const filtered = Object.keys(search).some((key) => !["sort", "page"].includes(key));
  const availableQuery = useQuery({ ...availableSystemsQueryOptions(), enabled: canManage });
  const placedPlants = (availableQuery.data ?? []).filter(
    (system) => (system.latitude !== null && system.longitude !== null) || system.location,
  );
  const fromPlants = useSitesFromSystemsMutation();
  const createFromPlants =
    canManage && placedPlants.length > 0 ? (
      <Button
        variant="secondary"
        icon={RiMagicLine}
        loading={fromPlants.isPending}
        onClick={() =>
          fromPlants.mutate(
            placedPlants.map((system) => system.id),
            {
              onSuccess: ({ created }) =>
                toast.success(t("siteManagement.createdFromPlants", { count: created })),
              onError: () => toast.error(t("siteManagement.createFromPlantsFailed")),
            },
          )
        }
      >
        {t("siteManagement.createFromPlants", { count: placedPlants.length })}
      </Button>
    ) : null;
  const createLink = (label: string) =>
    canManage ? (
      <ButtonLink to="/app/create-site">
        <RiAddLine className="h-4 w-4" aria-hidden="true" />
        {label}
      </ButtonLink>
    ) : null;
  const placeholder = sitesQuery.isPending ? "…" : sitesQuery.isError ? "—" : undefined;
  if (!canRead) {
    return (
      <>
        <PageHeader title={t("pages.siteManagement")} description={t("siteManagement.subtitle")} />
        <NoOrganisation />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t("pages.siteManagement")}
        description={t("siteManagement.subtitle")}
        actions={
          <div className="flex flex-wrap gap-2">
            {createFromPlants}
            {createLink(t("siteManagement.createNew"))}
          </div>
        }
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <StatCard
          label={t("siteManagement.totalSites")}
          value={placeholder ?? formatCount(totalSites, locale)}
        />
        <StatCard
          label={t("siteManagement.totalSystems")}
          value={placeholder ?? formatCount(totalSystems, locale)}
        />
        <StatCard
          label={t("siteManagement.totalCapacity")}
          value={placeholder ?? formatCapacityKw(Math.round(totalCapacityKw * 10) / 10, locale)}
        />
      </div>
      {filtered || totalSites > 0 ? (
        <div className="mb-4">
          <SiteFilters search={search} counts={counts} onChange={onSearch} />
        </div>
      ) : null}
      {sitesQuery.isPending ? (
        <Spinner label={t("sites.loading")} className="py-12" />
      ) : sitesQuery.isError ? (
        <ErrorState
          title={t("sites.loadFailed")}
          error={sitesQuery.error}
          onRetry={() => void sitesQuery.refetch()}
        />
      ) : sites.length === 0 && filtered ? (
        <EmptyState
          icon={RiBuilding4Line}
          title={t("fleetLists.noMatchTitle")}
          description={t("fleetLists.noMatchBody")}
        />
      ) : sites.length === 0 ? (
        <EmptyState
          icon={RiBuilding4Line}
          title={t("siteManagement.emptyTitle")}
          description={t("siteManagement.emptyBody")}
        >
          {createLink(t("siteManagement.createFirst"))}
          <PlaceholderLinks />
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-3" aria-busy={sitesQuery.isPlaceholderData}>
            {sites.map((site) => (
              <li key={site.id}>
                <ManagedSite site={site} canManage={canManage} />
              </li>
            ))}
          </ul>
          <Pager
            page={search.page ?? 1}
            pageCount={Math.max(1, Math.ceil((sitesQuery.data?.total ?? 0) / PER_PAGE))}
            onPage={(next) => onSearch({ page: next > 1 ? next : undefined })}
          />
        </>
      )}
    </>
  );
}
