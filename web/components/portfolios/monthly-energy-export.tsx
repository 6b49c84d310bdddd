import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "../ui/export-button";

/** GET /api/reports/monthly-energy as CSV: energy per site and portfolio over the chosen month. */
export function MonthlyEnergyExport() {
  const { t } = useTranslation();
  const label = t("common.exportEnergy");
  // The last finished month on the browser's clock (day 0 of this month is the last of the one before).
  const [month, setMonth] = useState(() => {
    const date = new Date();
    date.setDate(0);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}`;
  });
  return (
    <div className="flex items-center gap-2">
      <input
        type="month"
        aria-label={label}
        value={month}
        onChange={(event) => setMonth(event.target.value)}
        className="rounded-tremor-default border border-tremor-border px-2 py-1 text-tremor-default"
      />
      {/^\d{4}-\d{2}$/.test(month) ? (
        <ExportButton path={`/reports/monthly-energy?month=${month}`} label={label} />
      ) : null}
    </div>
  );
}
