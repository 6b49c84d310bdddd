import { RiPlugLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../ui/empty-state";

export function ProviderCredentialsTab() {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={RiPlugLine}
      title={t("settings.providers.empty")}
      description={t("settings.providers.emptyBody")}
    />
  );
}
