import { RiSunCloudyLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function WeatherPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.weather")} description={t("weather.subtitle")} />
      <EmptyState icon={RiSunCloudyLine} title={t("weather.emptyTitle")} description={t("weather.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
