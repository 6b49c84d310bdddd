import { RiSunLine } from "@remixicon/react";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { Card } from "@tremor/react";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { YieldEstimateResponse } from "../../../schema/api/solar";
import { formatKwh, formatNumber, localeFor } from "../../lib/format";
import { type YieldEstimateInput, yieldEstimateQueryOptions } from "../../lib/queries/solar";
import { toast } from "../../lib/toast";
import { Spinner } from "../ui/spinner";

interface YieldEstimateProps {
  /** Null until the site has a location and a capacity above 0. */
  input: YieldEstimateInput | null;
  estimate: UseQueryResult<YieldEstimateResponse>;
}

/**
 * The estimate needs a location and a total capacity above 0; a failure says
 * "Estimation unavailable" once per failed input.
 */
export function useYieldEstimate(input: YieldEstimateInput | null) {
  const { t } = useTranslation();
  const estimate = useQuery(yieldEstimateQueryOptions(input));
  const failed = estimate.isError;
  useEffect(() => {
    if (failed) {
      toast.error(t("createSite.estimate.unavailable"), {
        description: t("createSite.estimate.unavailableBody"),
      });
    }
  }, [failed, t]);
  return estimate;
}

export function YieldEstimate({ input, estimate }: YieldEstimateProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);

  let body: ReactNode;
  if (!input || input.capacityKw <= 0) {
    body = <p className="text-tremor-default text-tremor-content">{t("createSite.estimate.needs")}</p>;
  } else if (estimate.isPending) {
    body = <Spinner label={t("createSite.estimate.loading")} className="justify-start py-2" />;
  } else if (estimate.isError) {
    body = (
      <p role="alert" className="text-tremor-default text-tremor-content">
        {t("createSite.estimate.unavailable")}: {t("createSite.estimate.unavailableBody")}
      </p>
    );
  } else {
    const data = estimate.data;
    const rows: [string, string][] = [
      [t("createSite.estimate.annual"), formatKwh(data.annualYield, locale)],
      [t("createSite.estimate.monthly"), formatKwh(data.monthlyAverage, locale)],
      [
        t("createSite.estimate.peakSunHours"),
        t("createSite.estimate.hoursPerDay", { value: formatNumber(data.peakSunHours, locale, 1) }),
      ],
      [
        t("createSite.estimate.irradiance"),
        t("createSite.estimate.irradianceValue", { value: formatNumber(data.solarIrradiance, locale, 2) }),
      ],
      [
        t("createSite.estimate.specific"),
        t("createSite.estimate.specificValue", { value: formatNumber(data.specificYield, locale, 0) }),
      ],
    ];
    body = (
      <dl className="grid gap-3 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-tremor-label text-tremor-content">{label}</dt>
            <dd className="text-tremor-title font-semibold text-tremor-content-strong">{value}</dd>
          </div>
        ))}
      </dl>
    );
  }

  return (
    <Card>
      <h2 className="flex items-center gap-2 text-tremor-title font-semibold text-tremor-content-strong">
        <RiSunLine className="h-5 w-5 text-amber-500" aria-hidden="true" />
        {t("createSite.estimate.title")}
      </h2>
      <p className="mb-4 text-tremor-label text-tremor-content">{t("createSite.estimate.description")}</p>
      {body}
    </Card>
  );
}
