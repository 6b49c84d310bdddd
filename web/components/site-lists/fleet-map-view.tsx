import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { siteMapQueryOptions } from "../../lib/queries/site-lists";
import type { SiteListSearch } from "../../lib/site-list-search";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { FleetMap } from "./fleet-map";

/** The matching sites on the fleet's map (its own chunk, with the land outlines). */
export function FleetMapView({ search }: { search: SiteListSearch }) {
  const { t } = useTranslation();
  const map = useQuery(siteMapQueryOptions(search));
  if (map.isPending) return <Spinner label={t("fleetLists.map.loading")} className="py-16" />;
  if (map.isError) {
    return <ErrorState title={t("sites.loadFailed")} error={map.error} onRetry={() => void map.refetch()} />;
  }
  return <FleetMap map={map.data} />;
}
