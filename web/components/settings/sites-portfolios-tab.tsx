import { RiMapPinLine } from "@remixicon/react";
import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { useCurrentProfile } from "../profile-context";
import { EmptyState } from "../ui/empty-state";

export function SitesPortfoliosTab() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h3 className="text-tremor-default font-semibold text-tremor-content-strong">
          {t("settings.sitesPortfolios.sitesTitle")}
        </h3>
        <Badge color={profile.role === "user" ? "gray" : "blue"}>
          {profile.role === "user"
            ? t("settings.sitesPortfolios.readOnly")
            : t("settings.sitesPortfolios.fullAccess")}
        </Badge>
      </div>
      <EmptyState
        icon={RiMapPinLine}
        title={t("settings.sitesPortfolios.empty")}
        description={t("settings.sitesPortfolios.emptyBody")}
      />
    </div>
  );
}
