import { RiAddLine, RiSunLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.dashboard")} description={t("dashboard.subtitle")} />
      <EmptyState icon={RiSunLine} title={t("dashboard.emptyTitle")} description={t("dashboard.emptyBody")}>
        <ButtonLink to="/app/create-site">
          <RiAddLine className="h-4 w-4" aria-hidden="true" />
          {t("dashboard.addSite")}
        </ButtonLink>
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
