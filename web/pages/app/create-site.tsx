import { RiArrowLeftLine, RiPlugLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PlaceholderLinks } from "../../components/placeholder-links";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

export function CreateSitePage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t("pages.createSite")}
        description={t("createSite.subtitle")}
        actions={
          <ButtonLink to="/app/site-management" variant="secondary">
            <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
            {t("common.cancel")}
          </ButtonLink>
        }
      />
      <EmptyState
        icon={RiPlugLine}
        title={t("createSite.emptyTitle")}
        description={t("createSite.emptyBody")}
      >
        <PlaceholderLinks />
      </EmptyState>
    </>
  );
}
