import { RiBarChartBoxLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function AnalyticsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.analytics")} description={t("analytics.subtitle")} />
      <EmptyState
        icon={RiBarChartBoxLine}
        title={t("analytics.emptyTitle")}
        description={t("analytics.emptyBody")}
      >
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
