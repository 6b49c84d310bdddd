import { RiMapPinLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function SitesPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.sites")} description={t("sites.subtitle")} />
      <EmptyState icon={RiMapPinLine} title={t("sites.emptyTitle")} description={t("sites.emptyBody")}>
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
