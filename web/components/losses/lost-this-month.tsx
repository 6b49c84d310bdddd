import { RiArrowRightLine, RiMoneyDollarCircleLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { formatKwh, formatPercent } from "../../lib/format";
import { formatMoney } from "../../lib/format-money";
import { useLossesStrings } from "../../lib/i18n/losses";
import { periodRange, sumLosses, todayIn } from "../../lib/losses";
import { type LossesReport, type LossScope, lossesQueryOptions } from "../../lib/queries/losses";
import { ButtonLink } from "../ui/button-link";
import { useUserTimeZone } from "../use-user-time-zone";

/** This month so far in the reader's zone, as the API takes it. */
function useThisMonth(scope: LossScope) {
  const timeZone = useUserTimeZone();
  return useQuery({
    ...lossesQueryOptions(scope, periodRange("thisMonth", todayIn(timeZone))),
    retry: false,
  });
}

/** What the report's losses are in words: value and energy, or energy alone without a price. */
function describe(report: LossesReport, locale: string) {
  const lostKwh = sumLosses(report.totals.losses);
  return {
    value:
      report.currency !== null && report.totals.lostValue !== null
        ? formatMoney(report.totals.lostValue, report.currency, locale)
        : null,
    energy: formatKwh(lostKwh, locale),
    percent:
      report.totals.expectedKwh > 0
        ? formatPercent((lostKwh / report.totals.expectedKwh) * 100, locale)
        : null,
  };
}

/** The dashboard's line: what the fleet lost this month, in money where a price is set, linked to the losses. */
export function FleetLostThisMonth({ locale }: { locale: string }) {
  useLossesStrings();
  const { t } = useTranslation();
  const query = useThisMonth({ fleet: true });
  const figures = query.data ? describe(query.data, locale) : null;
  return (
    <Card className="flex flex-wrap items-center gap-x-6 gap-y-2" aria-labelledby="lost-this-month">
      <span className="flex items-center gap-2">
        <RiMoneyDollarCircleLine className="h-5 w-5 text-rose-500" aria-hidden="true" />
        <span id="lost-this-month" className="text-tremor-default text-tremor-content">
          {t("losses.summary.title")}
        </span>
      </span>
      <span
        className="text-tremor-metric font-semibold text-tremor-content-strong"
        data-testid="fleet-lost-value"
      >
        {query.isPending ? "…" : figures ? (figures.value ?? figures.energy) : "—"}
      </span>
      <span className="min-w-0 flex-1 text-tremor-label text-tremor-content">
        {query.isError
          ? t("losses.summary.unavailable")
          : figures
            ? figures.value === null
              ? t("losses.summary.noPrice", { energy: figures.energy })
              : figures.percent
                ? t("losses.summary.ofExpected", { energy: figures.energy, percent: figures.percent })
                : t("losses.summary.energy", { energy: figures.energy })
            : null}
      </span>
      <ButtonLink to="/app/losses" variant="light">
        {t("losses.summary.open")}
        <RiArrowRightLine className="h-4 w-4" aria-hidden="true" />
      </ButtonLink>
    </Card>
  );
}

/** A portfolio's lost value this month, as one of its figures. */
export function PortfolioLostThisMonth({ portfolioId, locale }: { portfolioId: string; locale: string }) {
  useLossesStrings();
  const { t } = useTranslation();
  const query = useThisMonth({ portfolioId });
  const figures = query.data ? describe(query.data, locale) : null;
  return (
    <div className="rounded-tremor-small bg-tremor-background-muted px-3 py-2">
      <dt className="text-tremor-label text-tremor-content">{t("losses.summary.portfolio")}</dt>
      <dd className="text-tremor-title font-semibold text-tremor-content-strong">
        {query.isPending ? "…" : figures ? (figures.value ?? figures.energy) : "—"}
      </dd>
    </div>
  );
}
