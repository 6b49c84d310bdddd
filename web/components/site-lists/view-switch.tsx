import { useTranslation } from "react-i18next";
import { SITE_VIEWS, type SiteListSearch } from "../../lib/site-list-search";

/** The sites as a list, in groups or on the map, with the same filters. */
export function SiteViewSwitch({
  view,
  onChange,
}: {
  view: NonNullable<SiteListSearch["view"]>;
  onChange: (view: NonNullable<SiteListSearch["view"]>) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset
      aria-label={t("fleetLists.view")}
      className="flex rounded-tremor-default bg-tremor-background-subtle p-0.5"
    >
      {SITE_VIEWS.map((value) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => onChange(value)}
          className="rounded-tremor-small px-3 py-1 text-tremor-default text-tremor-content aria-pressed:bg-tremor-background aria-pressed:font-medium aria-pressed:text-tremor-brand aria-pressed:shadow-tremor-input"
        >
          {t(`fleetLists.views.${value}`)}
        </button>
      ))}
    </fieldset>
  );
}
