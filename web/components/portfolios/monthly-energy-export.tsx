import { Card } from "@tremor/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "../ui/export-button";
import { localDate, shiftDate } from "../weather/day";

/** GET /api/reports/monthly-energy as CSV: energy per site and portfolio for a chosen month. */
export function MonthlyEnergyExport({ timeZone }: { timeZone?: string }) {
  const { t } = useTranslation();
  // The last finished month on the viewer's clock: the day before the first of this month.
  const [month, setMonth] = useState(() =>
    shiftDate(`${localDate(Date.now(), timeZone).slice(0, 7)}-01`, -1).slice(0, 7),
  );
  return (
    <Card className="mb-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-tremor-title font-semibold text-tremor-content-strong">
            {t("portfolios.monthlyEnergy.title")}
          </h2>
          <p className="mt-1 text-tremor-default text-tremor-content">{t("portfolios.monthlyEnergy.body")}</p>
        </div>
        <div className="flex items-end gap-2">
          <label className="text-tremor-default text-tremor-content-emphasis">
            <span className="mb-1 block">{t("portfolios.monthlyEnergy.month")}</span>
            <input
              type="month"
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              className="rounded-tremor-default border border-tremor-border px-2 py-1 text-tremor-default"
            />
          </label>
          {/^\d{4}-\d{2}$/.test(month) ? (
            <ExportButton path={`/reports/monthly-energy?month=${encodeURIComponent(month)}`} />
          ) : null}
        </div>
      </div>
    </Card>
  );
}
