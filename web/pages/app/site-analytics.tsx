import { RiArrowLeftLine, RiMapPinLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { PageHeader } from "../../components/ui/page-header";

/** No site can exist yet, so every id is answered with the Site Not Found state of SPEC section 2. */
export function SiteAnalyticsPage({ siteId }: { siteId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t("pages.siteAnalytics")}
        actions={
          <ButtonLink to="/app/analytics" variant="secondary">
            <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
            {t("analytics.back")}
          </ButtonLink>
        }
      />
      <EmptyState
        icon={RiMapPinLine}
        title={t("analytics.siteNotFoundTitle")}
        description={t("analytics.siteNotFoundBody", { siteId })}
      >
        <ButtonLink to="/app/analytics">
          <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
          {t("analytics.back")}
        </ButtonLink>
      </EmptyState>
    </>
  );
}
