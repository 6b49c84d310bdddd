import { RiCheckboxCircleLine, RiErrorWarningLine } from "@remixicon/react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Callout, Card, Tab, TabGroup, TabList } from "@tremor/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { useCurrentProfile } from "../../components/profile-context";
import { Pager } from "../../components/site-lists/list-controls";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { formatCount, formatKwh, localeFor } from "../../lib/format";
import { formatMoney } from "../../lib/format-money";
import { useFleetListsStrings } from "../../lib/i18n/fleet-lists";
import { useLossesStrings } from "../../lib/i18n/losses";
import { actorFromProfile } from "../../lib/permissions";
import {
  lossRankingQueryOptions,
  RANKING_PAGE_SIZE,
  type RankingDays,
  rankingDays,
} from "../../lib/queries/losses";

/**
 * The fleet's losses: the sites ranked worst-first by what they lost over 7 or 30 days, with their
 * main cause, a page at a time.
 */
export function LossesPage() {
  const [days, setDays] = useState<RankingDays>(30);
  const [page, setPage] = useState(1);
  const onDaysChange = (next: RankingDays) => {
    setDays(next);
    setPage(1);
  };
  useLossesStrings();
  // The pager's words.
  useFleetListsStrings();
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const actor = actorFromProfile(useCurrentProfile());
  const canRead = can(actor, "org:read");
  const query = useQuery({
    ...lossRankingQueryOptions(days, page),
    enabled: canRead,
    placeholderData: keepPreviousData,
  });

  const header = (
    <PageHeader
      title={t("pages.losses")}
      description={t("losses.ranking.subtitle")}
      actions={
        <TabGroup
          index={rankingDays.indexOf(days)}
          onIndexChange={(index) => onDaysChange(rankingDays[index] ?? 30)}
        >
          <TabList variant="solid" aria-label={t("losses.ranking.window")}>
            <Tab>{t("losses.ranking.days7")}</Tab>
            <Tab>{t("losses.ranking.days30")}</Tab>
          </TabList>
        </TabGroup>
      }
    />
  );
  if (!canRead) {
    return (
      <>
        {header}
        <NoOrganisation />
      </>
    );
  }
  if (query.isPending) {
    return (
      <>
        {header}
        <Spinner className="py-16" />
      </>
    );
  }
  if (!query.data) {
    return (
      <>
        {header}
        <ErrorState
          title={t("losses.ranking.loadFailed")}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  const { currency, sites, sitesWithLoss } = query.data;
  const firstRank = (page - 1) * RANKING_PAGE_SIZE + 1;
  // The sites that lost energy come first in the ranking: the screen pages through them alone.
  const lost = sites.filter((site) => site.lostKwh > 0);
  const pageCount = Math.max(1, Math.ceil(sitesWithLoss / RANKING_PAGE_SIZE));
  return (
    <>
      {header}
      {currency === null && lost.length > 0 ? (
        <Callout title={t("losses.noPrice")} color="amber" icon={RiErrorWarningLine} className="mb-6" />
      ) : null}
      {lost.length === 0 && page === 1 ? (
        <EmptyState
          icon={RiCheckboxCircleLine}
          title={t("losses.ranking.emptyTitle")}
          description={t("losses.ranking.empty")}
        />
      ) : (
        <Card className="overflow-x-auto p-0">
          <table className="w-full text-tremor-default text-tremor-content">
            <caption className="sr-only">{t("losses.ranking.caption", { days })}</caption>
            <thead>
              <tr className="border-b border-tremor-border text-left text-tremor-label">
                <th scope="col" className="px-4 py-3 font-medium">
                  {t("losses.ranking.rank")}
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t("losses.ranking.site")}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  {t("losses.lostValue")}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-medium">
                  {t("losses.lostEnergy")}
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  {t("losses.ranking.mainCause")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-tremor-border">
              {lost.map((site, index) => (
                <tr key={site.siteId} className="hover:bg-tremor-background-muted">
                  <td className="px-4 py-2.5 tabular-nums">{formatCount(firstRank + index, locale)}</td>
                  <th scope="row" className="px-4 py-2.5 text-left font-medium">
                    <Link
                      to="/app/sites/$siteId"
                      params={{ siteId: site.siteId }}
                      search={{ tab: "losses" }}
                      className="text-tremor-brand hover:underline"
                    >
                      {site.name}
                    </Link>
                  </th>
                  <td className="px-4 py-2.5 text-right font-semibold tabular-nums text-tremor-content-strong">
                    {currency ? formatMoney(site.lostValue, currency, locale) : "—"}
                  </td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatKwh(site.lostKwh, locale)}</td>
                  <td className="px-4 py-2.5">
                    {site.mainCause ? t(`losses.categories.${site.mainCause}`) : t("losses.ranking.none")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <Pager page={page} pageCount={pageCount} onPage={setPage} />
    </>
  );
}
