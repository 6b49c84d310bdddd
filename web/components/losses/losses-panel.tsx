import { RiErrorWarningLine, RiPriceTag3Line } from "@remixicon/react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Callout, Card } from "@tremor/react";
import { lazy, type ReactNode, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { type LossCategory, lossCategories } from "../../../schema/loss-categories";
import { errorDescription } from "../../lib/error-messages";
import { formatDate, formatKwh, formatPercent, localeFor } from "../../lib/format";
import { formatMoney } from "../../lib/format-money";
import {
  type DateRange,
  isValidRange,
  type LossPeriod,
  lossPeriods,
  periodRange,
  recoverableLosses,
  sumLosses,
  todayIn,
} from "../../lib/losses";
import { type LossesDay, type LossScope, lossesPath, lossesQueryOptions } from "../../lib/queries/losses";
import { DateInput } from "../ui/date-input";
import { ExportButton } from "../ui/export-button";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";
import { Waterfall } from "./waterfall";

// The chart library loads with the chart, after the figures.
const DailyLossesChart = lazy(() =>
  import("./daily-chart").then((module) => ({ default: module.DailyLossesChart })),
);

/**
 * Each category's value over the days: a day's lost value shared by its categories' energy. Exact
 * for one site (a day has one price there); null without prices.
 */
function categoryValues(days: LossesDay[]): Record<LossCategory, number> | null {
  if (!days.some((day) => day.lostValue !== null)) return null;
  const values = Object.fromEntries(lossCategories.map((c) => [c, 0])) as Record<LossCategory, number>;
  for (const day of days) {
    const lost = sumLosses(day.losses);
    if (day.lostValue === null || lost <= 0) continue;
    for (const category of lossCategories) values[category] += (day.lostValue * day.losses[category]) / lost;
  }
  return values;
}

interface LossesPanelProps {
  scope: LossScope;
  /** The scope's clock: periods end with its today. */
  timeZone: string;
  /** Opens the price editor, for a reader who may set one; absent otherwise. */
  onSetPrice?: () => void;
}

/** A scope's losses over a chosen period: figures, the waterfall, the days stacked by category. */
export function LossesPanel({ scope, timeZone, onSetPrice }: LossesPanelProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const today = todayIn(timeZone);
  const [period, setPeriod] = useState<LossPeriod | "custom">("last30");
  const [custom, setCustom] = useState<DateRange>(() => periodRange("last30", today));
  const range = period === "custom" ? custom : periodRange(period, today);
  const valid = isValidRange(range);
  const query = useQuery({
    ...lossesQueryOptions(scope, range),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const report = query.data;

  const dayText = (date: string) => formatDate(`${date}T12:00:00Z`, { locale, timeZone: "UTC" });
  const controls = (
    <div className="flex flex-wrap items-end gap-3">
      <div className="w-48">
        <Field label={t("losses.periods.label")} htmlFor={`${id}-period`}>
          <NativeSelect
            id={`${id}-period`}
            value={period}
            onChange={(event) => setPeriod(event.target.value as LossPeriod | "custom")}
          >
            {[...lossPeriods, "custom" as const].map((value) => (
              <option key={value} value={value}>
                {t(`losses.periods.${value}`)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      {period === "custom" ? (
        <>
          <div className="w-44">
            <Field label={t("losses.from")} htmlFor={`${id}-from`}>
              <DateInput
                id={`${id}-from`}
                value={custom.from}
                max={today}
                onChange={(event) => setCustom((current) => ({ ...current, from: event.target.value }))}
              />
            </Field>
          </div>
          <div className="w-44">
            <Field label={t("losses.to")} htmlFor={`${id}-to`}>
              <DateInput
                id={`${id}-to`}
                value={custom.to}
                max={today}
                onChange={(event) => setCustom((current) => ({ ...current, to: event.target.value }))}
              />
            </Field>
          </div>
        </>
      ) : null}
      <div className="ml-auto flex items-center gap-3">
        {query.isFetching && report ? <Spinner /> : null}
        {valid ? <ExportButton path={lossesPath(scope, range)} label={t("losses.export")} /> : null}
      </div>
    </div>
  );

  let body: ReactNode;
  if (!valid) {
    body = <Callout title={t("losses.invalidRange")} color="amber" icon={RiErrorWarningLine} role="alert" />;
  } else if (query.isPending) {
    body = <Spinner className="py-12" />;
  } else if (!report) {
    body = (
      <Callout title={t("losses.loadFailed")} color="red" icon={RiErrorWarningLine} role="alert">
        {errorDescription(query.error, t("errors.unknownError"))}
      </Callout>
    );
  } else {
    const { totals, currency } = report;
    const lostKwh = sumLosses(totals.losses);
    const recoverableKwh = recoverableLosses(totals.losses);
    const ofExpected = (kwh: number) =>
      totals.expectedKwh > 0
        ? t("losses.ofExpected", { percent: formatPercent((kwh / totals.expectedKwh) * 100, locale) })
        : undefined;
    const money = (amount: number | null) => (currency ? formatMoney(amount, currency, locale) : "—");
    body = (
      <div className="space-y-6">
        <p className="text-tremor-label text-tremor-content">
          {t("losses.rangeOnSiteClock", {
            from: dayText(report.from),
            to: dayText(report.to),
            zone: timeZone,
          })}
        </p>
        {currency === null ? (
          <Callout title={t("losses.noPrice")} color="amber" icon={RiPriceTag3Line}>
            {onSetPrice ? (
              <Button size="xs" variant="secondary" className="mt-2" onClick={onSetPrice}>
                {t("losses.setPrice")}
              </Button>
            ) : null}
          </Callout>
        ) : null}
        <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Figure label={t("losses.expected")} value={formatKwh(totals.expectedKwh, locale)} />
          <Figure
            label={t("losses.actual")}
            value={formatKwh(totals.actualKwh, locale)}
            note={currency ? `${t("losses.revenue")}: ${money(totals.revenue)}` : undefined}
          />
          <Figure
            label={t("losses.lostValue")}
            value={money(totals.lostValue)}
            note={`${t("losses.lostEnergy")}: ${formatKwh(lostKwh, locale)}${ofExpected(lostKwh) ? ` · ${ofExpected(lostKwh)}` : ""}`}
            emphasis
          />
          <Figure
            label={t("losses.recoverable")}
            value={formatKwh(recoverableKwh, locale)}
            note={ofExpected(recoverableKwh)}
            hint={t("losses.recoverableHint")}
          />
        </dl>
        {totals.expectedKwh <= 0 ? (
          <Callout title={t("losses.noExpected")} color="gray" icon={RiErrorWarningLine} />
        ) : (
          <>
            <Card>
              <h3 className="mb-3 font-semibold text-tremor-content-strong">{t("losses.waterfall.title")}</h3>
              <Waterfall
                expectedKwh={totals.expectedKwh}
                actualKwh={totals.actualKwh}
                losses={totals.losses}
                weatherKwh={totals.weatherKwh}
                values={"siteId" in scope || "systemId" in scope ? categoryValues(report.days) : null}
                currency={currency}
                locale={locale}
              />
              <p className="mt-3 text-tremor-label text-tremor-content">{t("losses.weatherHint")}</p>
            </Card>
            <Card>
              <h3 className="font-semibold text-tremor-content-strong">{t("losses.daily.title")}</h3>
              <p className="mb-3 text-tremor-label text-tremor-content">{t("losses.daily.subtitle")}</p>
              <Suspense fallback={<Spinner className="h-72" />}>
                <DailyLossesChart days={report.days} locale={locale} />
              </Suspense>
            </Card>
          </>
        )}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      {controls}
      {body}
    </div>
  );
}

function Figure({
  label,
  value,
  note,
  hint,
  emphasis = false,
}: {
  label: string;
  value: string;
  note?: string;
  hint?: string;
  emphasis?: boolean;
}) {
  return (
    <Card decoration="top" decorationColor={emphasis ? "rose" : "blue"}>
      <dt className="text-tremor-default text-tremor-content" title={hint}>
        {label}
      </dt>
      <dd className="mt-1 text-tremor-metric font-semibold text-tremor-content-strong">{value}</dd>
      {note ? <dd className="mt-2 text-tremor-label text-tremor-content">{note}</dd> : null}
    </Card>
  );
}
