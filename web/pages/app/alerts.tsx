import { RiShieldCheckLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function AlertsPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.alerts")} description={t("alerts.subtitle")} />
      <EmptyState icon={RiShieldCheckLine} title={t("alerts.emptyTitle")} description={t("alerts.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
