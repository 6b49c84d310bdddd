import { RiAddLine, RiMapPinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button } from "@tremor/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { useLossesStrings } from "../../lib/i18n/losses";
import { actorFromProfile } from "../../lib/permissions";
import { portfoliosQueryOptions, useAddPortfolioSitesMutation } from "../../lib/queries/portfolios";
import { sitesQueryOptions } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";
import { OrganizationTariffEditor } from "../losses/tariff-editor";
import { CreatePortfolioForm } from "../portfolios/create-portfolio-form";
import { useCurrentProfile } from "../profile-context";
import { NoOrganisation } from "../sites/no-organisation";
import { SiteStatusBadge } from "../sites/site-status-badge";
import { EmptyState } from "../ui/empty-state";
import { ErrorState } from "../ui/error-state";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";

/**
 * Settings → Sites & Portfolios: the organisation's default price of energy, create a portfolio,
 * the portfolios with their real site counts, every site with a checkbox, and the bar that adds
 * the selected sites to a portfolio (shown once a site is selected and a portfolio exists).
 * Closing the modal unmounts the tab, which resets the form and the selection.
 */
export function SitesPortfoliosTab() {
  useLossesStrings();
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const canManage = can(actor, "portfolios:manage");
  const sitesQuery = useQuery({ ...sitesQueryOptions(), enabled: canRead });
  const portfoliosQuery = useQuery({ ...portfoliosQueryOptions(), enabled: canRead });
  const addSites = useAddPortfolioSitesMutation();
  const [selected, setSelected] = useState<string[]>([]);
  const [target, setTarget] = useState("");

  const portfolios = portfoliosQuery.data ?? [];
  const sites = sitesQuery.data ?? [];
  const targetId = portfolios.some((p) => p.id === target) ? target : (portfolios[0]?.id ?? "");
  const showBar = canManage && selected.length > 0 && portfolios.length > 0;

  const toggle = (siteId: string, checked: boolean) =>
    setSelected((current) => (checked ? [...current, siteId] : current.filter((x) => x !== siteId)));

  const addSelected = () => {
    if (!targetId || selected.length === 0) return;
    addSites.mutate(
      { portfolioId: targetId, siteIds: selected },
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

  if (!canRead) return <NoOrganisation />;

  return (
    <div className="space-y-6">
      <OrganizationTariffEditor canManage={can(actor, "settings:manage")} />
      <section aria-labelledby={`${id}-portfolios`} className="space-y-3">
        <h3 id={`${id}-portfolios`} className="text-tremor-default font-semibold text-tremor-content-strong">
          {t("settings.sitesPortfolios.portfoliosTitle")}
        </h3>
        {canManage ? <CreatePortfolioForm layout="wide" /> : null}
        {portfoliosQuery.isPending ? (
          <Spinner label={t("portfolios.loading")} className="justify-start py-2" />
        ) : portfoliosQuery.isError ? (
          <ErrorState
            title={t("portfolios.loadFailed")}
            error={portfoliosQuery.error}
            onRetry={() => void portfoliosQuery.refetch()}
          />
        ) : portfolios.length === 0 ? (
          <p className="text-tremor-default text-tremor-content">
            {t("settings.sitesPortfolios.noPortfolios")}
          </p>
        ) : (
          <ul
            aria-labelledby={`${id}-portfolios`}
            className="divide-y divide-tremor-border rounded-tremor-default border border-tremor-border"
          >
            {portfolios.map((portfolio) => (
              <li key={portfolio.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="min-w-0">
                  <span className="block truncate font-medium text-tremor-content-strong">
                    {portfolio.name}
                  </span>
                  {portfolio.description ? (
                    <span className="block truncate text-tremor-label text-tremor-content">
                      {portfolio.description}
                    </span>
                  ) : null}
                </span>
                <Badge color="blue" size="xs">
                  {portfolio.siteCount === 1
                    ? t("settings.sitesPortfolios.oneSite")
                    : t("settings.sitesPortfolios.siteCount", { count: portfolio.siteCount })}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${id}-sites`} className="space-y-3">
        <div className="flex items-center justify-between">
          <h3 id={`${id}-sites`} className="text-tremor-default font-semibold text-tremor-content-strong">
            {t("settings.sitesPortfolios.sitesTitle")}
          </h3>
          <Badge color={profile.role === "user" ? "gray" : "blue"}>
            {profile.role === "user"
              ? t("settings.sitesPortfolios.readOnly")
              : t("settings.sitesPortfolios.fullAccess")}
          </Badge>
        </div>
        {showBar ? (
          <section
            aria-label={t("settings.sitesPortfolios.barLabel")}
            className="flex flex-wrap items-end gap-3 rounded-tremor-default border border-tremor-brand-muted bg-tremor-brand-faint p-3"
          >
            <p className="text-tremor-default font-medium text-tremor-content-strong sm:self-center">
              {t("settings.sitesPortfolios.selected", { count: selected.length })}
            </p>
            <div className="min-w-[12rem] flex-1">
              <Field label={t("settings.sitesPortfolios.targetPortfolio")} htmlFor={`${id}-target`}>
                <NativeSelect
                  id={`${id}-target`}
                  value={targetId}
                  onChange={(e) => setTarget(e.target.value)}
                >
                  {portfolios.map((portfolio) => (
                    <option key={portfolio.id} value={portfolio.id}>
                      {portfolio.name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
            <Button icon={RiAddLine} onClick={addSelected} loading={addSites.isPending}>
              {t("settings.sitesPortfolios.addToPortfolio")}
            </Button>
          </section>
        ) : null}
        {sitesQuery.isPending ? (
          <Spinner label={t("sites.loading")} className="justify-start py-2" />
        ) : sitesQuery.isError ? (
          <ErrorState
            title={t("sites.loadFailed")}
            error={sitesQuery.error}
            onRetry={() => void sitesQuery.refetch()}
          />
        ) : sites.length === 0 ? (
          <EmptyState
            icon={RiMapPinLine}
            title={t("settings.sitesPortfolios.empty")}
            description={t("settings.sitesPortfolios.emptyBody")}
          />
        ) : (
          <ul
            aria-labelledby={`${id}-sites`}
            className="max-h-[24rem] divide-y divide-tremor-border overflow-y-auto rounded-tremor-default border border-tremor-border"
          >
            {sites.map((site) => (
              <li key={site.id}>
                <label className="flex items-center gap-3 px-3 py-2 text-tremor-default">
                  <input
                    type="checkbox"
                    className="h-4 w-4 rounded border-tremor-border text-tremor-brand focus:ring-tremor-brand-muted disabled:cursor-not-allowed"
                    checked={selected.includes(site.id)}
                    disabled={!canManage}
                    onChange={(event) => toggle(site.id, event.target.checked)}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-tremor-content-strong">{site.name}</span>
                    <span className="block truncate text-tremor-label text-tremor-content">
                      {site.location}
                    </span>
                  </span>
                  <span className="text-tremor-label text-tremor-content">
                    {formatCapacityKw(site.capacity, locale)}
                  </span>
                  <SiteStatusBadge status={site.status} />
                </label>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
