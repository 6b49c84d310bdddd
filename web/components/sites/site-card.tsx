import { RiMapPinLine } from "@remixicon/react";
import { Link } from "@tanstack/react-router";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { Site } from "../../../schema/api/sites";
import { formatCapacityKw, formatDateTime, formatEnergyWh, formatPowerW, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useUserTimeZone } from "../use-user-time-zone";
import { SiteStatusBadge } from "./site-status-badge";

/** One site of the Solar Sites grid: where it is, what it is, and its latest values with their time. */
export function SiteCard({ site }: { site: Site }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const headingId = `site-${site.id}-name`;
  const providers = site.providers.length > 0 ? site.providers : site.provider ? [site.provider] : [];
  return (
    <Card aria-labelledby={headingId} className="flex w-full flex-col gap-4" role="article">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2
            id={headingId}
            className="break-words text-tremor-title font-semibold text-tremor-content-strong"
          >
            <Link
              to="/app/sites/$siteId"
              params={{ siteId: site.id }}
              className="hover:text-tremor-brand hover:underline"
            >
              {site.name}
            </Link>
          </h2>
          <p className="mt-1 flex items-start gap-1 text-tremor-label text-tremor-content">
            <RiMapPinLine className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            <span className="line-clamp-2">{site.location}</span>
          </p>
        </div>
        <SiteStatusBadge status={site.status} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-tremor-default">
        <div>
          <dt className="text-tremor-label text-tremor-content">{t("sites.card.provider")}</dt>
          <dd className="font-medium text-tremor-content-strong">
            {providers.length > 0 ? providers.map((p) => providerNames[p]).join(", ") : t("sites.card.none")}
          </dd>
        </div>
        <div>
          <dt className="text-tremor-label text-tremor-content">{t("sites.card.capacity")}</dt>
          <dd className="font-medium text-tremor-content-strong">
            {formatCapacityKw(site.capacity, locale)}
          </dd>
        </div>
        <div>
          <dt className="text-tremor-label text-tremor-content">{t("sites.card.currentPower")}</dt>
          <dd className="font-medium text-tremor-content-strong">
            {formatPowerW(site.currentPower, locale)}
          </dd>
        </div>
        <div>
          <dt className="text-tremor-label text-tremor-content">{t("sites.card.today")}</dt>
          <dd className="font-medium text-tremor-content-strong">
            {formatEnergyWh(site.todayGeneration, locale)}
          </dd>
        </div>
      </dl>
      <p className="mt-auto border-t border-tremor-border pt-3 text-tremor-label text-tremor-content">
        {site.lastUpdate
          ? t("sites.card.dataAsOf", { time: formatDateTime(site.lastUpdate, { locale, timeZone }) })
          : t("sites.card.noData")}
        {" · "}
        {t("sites.card.systems", { count: site.systemCount })}
      </p>
    </Card>
  );
}
