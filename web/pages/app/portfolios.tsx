import { RiBriefcase4Line } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function PortfoliosPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.portfolios")} description={t("portfolios.subtitle")} />
      <EmptyState
        icon={RiBriefcase4Line}
        title={t("portfolios.emptyTitle")}
        description={t("portfolios.emptyBody")}
      >
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
