import { Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { ProviderTotals } from "../../../schema/api/dashboard";
import { formatCapacityKw, formatCount, formatPowerW } from "../../lib/format";
import { providerNames } from "../../lib/providers";

/**
 * Site count, capacity and live power per provider as the API computed them (the four API
 * providers; meteronline, a CSV import, left out).
 */
export function ProviderSummary({
  providers: rows,
  excludedSystemCount,
  locale,
}: {
  providers: readonly ProviderTotals[];
  excludedSystemCount: number;
  locale: string;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <Title>{t("fleet.providers.title")}</Title>
      <ul className="mt-4 divide-y divide-tremor-border" aria-label={t("fleet.providers.title")}>
        {rows.map((row) => (
          <li key={row.provider} aria-label={providerNames[row.provider]} className="py-3">
            <div className="flex items-baseline justify-between gap-2">
              <span className="font-medium text-tremor-content-strong">{providerNames[row.provider]}</span>
              <span className="text-tremor-default font-semibold text-tremor-content-strong">
                {formatPowerW(row.powerW, locale)}
              </span>
            </div>
            {row.systemCount === 0 ? (
              <p className="text-tremor-label text-tremor-content">{t("fleet.providers.none")}</p>
            ) : (
              <p className="text-tremor-label text-tremor-content">
                {t("fleet.providers.detail", {
                  sites: formatCount(row.siteCount, locale),
                  systems: formatCount(row.systemCount, locale),
                  capacity: formatCapacityKw(Math.round(row.capacityKw * 10) / 10, locale),
                })}
              </p>
            )}
          </li>
        ))}
      </ul>
      {excludedSystemCount > 0 ? (
        <p className="mt-2 text-tremor-label text-tremor-content">
          {t("fleet.providers.meteronlineExcluded", { n: excludedSystemCount })}
        </p>
      ) : null}
    </Card>
  );
}
