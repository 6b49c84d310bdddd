import { useTranslation } from "react-i18next";
import { type AlertSeverity, alertSeverities } from "../../../schema/domain";
import type { AlertStateFilter, AlertFilters as Filters } from "../../lib/queries/alerts";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";

const states: AlertStateFilter[] = ["open", "resolved", "all"];

export function AlertFilters({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-3 md:max-w-3xl">
      <Field label={t("fleet.alerts.filterState")} htmlFor="alert-state-filter">
        <NativeSelect
          id="alert-state-filter"
          value={filters.state}
          onChange={(event) => onChange({ ...filters, state: event.target.value as AlertStateFilter })}
        >
          {states.map((state) => (
            <option key={state} value={state}>
              {t(`fleet.alerts.state.${state}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("fleet.alerts.filterSeverity")} htmlFor="alert-severity-filter">
        <NativeSelect
          id="alert-severity-filter"
          value={filters.severity ?? ""}
          onChange={(event) => {
            const value = event.target.value;
            onChange({
              ...filters,
              severity: value === "" ? undefined : (value as AlertSeverity),
            });
          }}
        >
          <option value="">{t("fleet.alerts.anySeverity")}</option>
          {alertSeverities.map((severity) => (
            <option key={severity} value={severity}>
              {t(`fleet.alerts.severity.${severity}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("alerting.alerts.sort")} htmlFor="alert-sort">
        <NativeSelect
          id="alert-sort"
          value={filters.sort ?? "lostEnergy"}
          onChange={(event) =>
            onChange({ ...filters, sort: event.target.value === "newest" ? "newest" : "lostEnergy" })
          }
        >
          <option value="lostEnergy">{t("alerting.alerts.sortLostEnergy")}</option>
          <option value="newest">{t("alerting.alerts.sortNewest")}</option>
        </NativeSelect>
      </Field>
    </div>
  );
}
