import { RiAddLine, RiMapPinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@tremor/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { useCurrentProfile } from "../../components/profile-context";
import { AddSiteDialog } from "../../components/sites/add-site-dialog";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { SiteCard } from "../../components/sites/site-card";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { actorFromProfile } from "../../lib/permissions";
import { sitesQueryOptions } from "../../lib/queries/sites";

/** Solar Sites: a card per site and the Add Site dialog. */
export function SitesPage() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const canManage = can(actor, "sites:manage");
  const [adding, setAdding] = useState(false);
  const sitesQuery = useQuery({ ...sitesQueryOptions(), enabled: canRead });

  const addButton = canManage ? (
    <Button icon={RiAddLine} onClick={() => setAdding(true)}>
      {t("sites.add.open")}
    </Button>
  ) : null;

  return (
    <>
      <PageHeader title={t("pages.sites")} description={t("sites.subtitle")} actions={addButton} />
      {!canRead ? (
        <NoOrganisation />
      ) : sitesQuery.isPending ? (
        <Spinner label={t("sites.loading")} className="py-12" />
      ) : sitesQuery.isError ? (
        <ErrorState
          title={t("sites.loadFailed")}
          error={sitesQuery.error}
          onRetry={() => void sitesQuery.refetch()}
        />
      ) : sitesQuery.data.length === 0 ? (
        <EmptyState icon={RiMapPinLine} title={t("sites.emptyTitle")} description={t("sites.emptyBody")}>
          {addButton}
          <PlaceholderLinks />
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {sitesQuery.data.map((site) => (
            <li key={site.id} className="flex">
              <SiteCard site={site} />
            </li>
          ))}
        </ul>
      )}
      {canManage ? <AddSiteDialog open={adding} onClose={() => setAdding(false)} /> : null}
    </>
  );
}
