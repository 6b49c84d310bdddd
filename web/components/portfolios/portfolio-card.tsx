import { RiAddLine, RiCloseLine, RiDeleteBinLine, RiEditLine } from "@remixicon/react";
import { Button, Card } from "@tremor/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Portfolio } from "../../../schema/api/portfolios";
import type { Site } from "../../../schema/api/sites";
import { errorDescription } from "../../lib/error-messages";
import {
  formatCapacityKw,
  formatCount,
  formatDateTime,
  formatEnergyWh,
  formatPowerW,
  formatRatio,
  localeFor,
} from "../../lib/format";
import {
  useAddPortfolioSitesMutation,
  useDeletePortfolioMutation,
  useRemovePortfolioSiteMutation,
} from "../../lib/queries/portfolios";
import { toast } from "../../lib/toast";
import { PortfolioLostThisMonth } from "../losses/lost-this-month";
import { SiteStatusBadge } from "../sites/site-status-badge";
import { useUserTimeZone } from "../use-user-time-zone";
import { PortfolioEditForm } from "./portfolio-edit-form";

interface PortfolioCardProps {
  portfolio: Portfolio;
  /** Every site of the organisation (names, states and data times; the totals come from the portfolio). */
  sites: Site[];
  canManage: boolean;
}

export function PortfolioCard({ portfolio, sites, canManage }: PortfolioCardProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const remove = useDeletePortfolioMutation();
  const addSites = useAddPortfolioSitesMutation();
  const removeSite = useRemovePortfolioSiteMutation();

  const inPortfolio = new Set(portfolio.siteIds);
  const members = sites.filter((site) => inPortfolio.has(site.id));
  const candidates = sites.filter((site) => !inPortfolio.has(site.id));
  const newest = members.reduce<string | null>(
    (latest, site) => (site.lastUpdate && (!latest || site.lastUpdate > latest) ? site.lastUpdate : latest),
    null,
  );
  const headingId = `${id}-name`;

  const onDelete = () => {
    if (!window.confirm(t("portfolios.confirmDelete", { name: portfolio.name }))) return;
    remove.mutate(portfolio.id, {
      onSuccess: () =>
        toast.success(t("portfolios.toasts.deleted"), {
          description: t("portfolios.toasts.deletedBody", { name: portfolio.name }),
        }),
      onError: (error) =>
        toast.error(t("portfolios.toasts.deleteFailed"), {
          description: errorDescription(error, t("portfolios.toasts.deleteFailedDefault")),
        }),
    });
  };

  const onAdd = () => {
    if (selected.length === 0) return;
    addSites.mutate(
      { portfolioId: portfolio.id, siteIds: selected },
      {
        onSuccess: (result) => {
          setSelected([]);
          toast.success(t("portfolios.toasts.sitesAdded"), { description: result.message });
        },
        onError: (error) =>
          toast.error(t("portfolios.toasts.addFailed"), {
            description: errorDescription(error, t("portfolios.toasts.addFailedDefault")),
          }),
      },
    );
  };

  const onRemoveSite = (site: Site) =>
    removeSite.mutate(
      { portfolioId: portfolio.id, siteId: site.id },
      {
        onSuccess: () =>
          toast.success(t("portfolios.toasts.siteRemoved"), {
            description: t("portfolios.toasts.siteRemovedBody", { site: site.name, name: portfolio.name }),
          }),
        onError: (error) =>
          toast.error(t("portfolios.toasts.removeFailed"), {
            description: errorDescription(error, t("portfolios.toasts.removeFailedDefault")),
          }),
      },
    );

  const stats: [string, string][] = [
    [t("portfolios.stats.sites"), formatCount(portfolio.siteCount, locale)],
    [t("portfolios.stats.capacity"), formatCapacityKw(Math.round(portfolio.capacityKw * 10) / 10, locale)],
    [t("portfolios.stats.power"), formatPowerW(portfolio.currentPowerW, locale)],
    [t("portfolios.stats.today"), formatEnergyWh(portfolio.todayEnergyWh, locale)],
    [t("portfolios.stats.performanceRatio"), formatRatio(portfolio.performanceRatio, locale)],
  ];

  return (
    <Card role="article" aria-labelledby={headingId} className="space-y-4">
      {editing ? (
        <PortfolioEditForm portfolio={portfolio} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={headingId} className="text-tremor-title font-semibold text-tremor-content-strong">
              {portfolio.name}
            </h2>
            {portfolio.description ? (
              <p className="text-tremor-default text-tremor-content">{portfolio.description}</p>
            ) : null}
          </div>
          {canManage ? (
            <div className="flex gap-2">
              <Button
                size="xs"
                variant="secondary"
                icon={RiEditLine}
                onClick={() => setEditing(true)}
                aria-label={t("portfolios.edit.openFor", { name: portfolio.name })}
              >
                {t("portfolios.edit.open")}
              </Button>
              <Button
                size="xs"
                variant="secondary"
                color="red"
                icon={RiDeleteBinLine}
                onClick={onDelete}
                loading={remove.isPending}
                aria-label={t("portfolios.deleteFor", { name: portfolio.name })}
              >
                {t("portfolios.delete")}
              </Button>
            </div>
          ) : null}
        </div>
      )}

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map(([label, value]) => (
          <div key={label} className="rounded-tremor-small bg-tremor-background-muted px-3 py-2">
            <dt className="text-tremor-label text-tremor-content">{label}</dt>
            <dd className="text-tremor-title font-semibold text-tremor-content-strong">{value}</dd>
          </div>
        ))}
        <PortfolioLostThisMonth portfolioId={portfolio.id} locale={locale} />
      </dl>
      <p className="text-tremor-label text-tremor-content">
        {newest
          ? t("sites.card.dataAsOf", { time: formatDateTime(newest, { locale, timeZone }) })
          : t("sites.card.noData")}
      </p>

      <section aria-labelledby={`${id}-sites`}>
        <h3 id={`${id}-sites`} className="mb-2 text-tremor-default font-semibold text-tremor-content-strong">
          {t("portfolios.sitesTitle")}
        </h3>
        {members.length === 0 ? (
          <p className="text-tremor-default text-tremor-content">{t("portfolios.noSites")}</p>
        ) : (
          <ul
            aria-labelledby={`${id}-sites`}
            className="divide-y divide-tremor-border rounded-tremor-default border border-tremor-border"
          >
            {members.map((site) => (
              <li key={site.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium text-tremor-content-strong">{site.name}</span>
                  <SiteStatusBadge status={site.status} />
                  <span className="text-tremor-label text-tremor-content">
                    {formatCapacityKw(site.capacity, locale)}
                  </span>
                </span>
                {canManage ? (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    icon={RiCloseLine}
                    onClick={() => onRemoveSite(site)}
                    aria-label={t("portfolios.removeSite", { site: site.name, name: portfolio.name })}
                  >
                    {t("portfolios.remove")}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      {canManage && candidates.length > 0 ? (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-tremor-default font-semibold text-tremor-content-strong">
            {t("portfolios.addSitesTitle")}
          </legend>
          <ul className="max-h-[16rem] space-y-1 overflow-y-auto rounded-tremor-default border border-tremor-border p-2">
            {candidates.map((site) => (
              <li key={site.id}>
                <label className="flex cursor-pointer items-center gap-2 rounded-tremor-small px-2 py-1 text-tremor-default hover:bg-tremor-background-subtle">
                  <input
                    type="checkbox"
                    className="h-4 w-4 rounded border-tremor-border text-tremor-brand focus:ring-tremor-brand-muted"
                    checked={selected.includes(site.id)}
                    onChange={(event) =>
                      setSelected((current) =>
                        event.target.checked ? [...current, site.id] : current.filter((x) => x !== site.id),
                      )
                    }
                  />
                  <span className="text-tremor-content-strong">{site.name}</span>
                  <span className="text-tremor-label text-tremor-content">{site.location}</span>
                </label>
              </li>
            ))}
          </ul>
          <Button
            size="xs"
            icon={RiAddLine}
            disabled={selected.length === 0}
            loading={addSites.isPending}
            onClick={onAdd}
          >
            {t("portfolios.addSelected", { count: selected.length })}
          </Button>
        </fieldset>
      ) : null}
    </Card>
  );
}
