import { RiLockLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../ui/empty-state";

/** Sites and portfolios belong to an organisation; an account without one (superAdmin) has none to show. */
export function NoOrganisation() {
  const { t } = useTranslation();
  return (
    <EmptyState icon={RiLockLine} title={t("errors.noAccessTitle")} description={t("sites.noOrganisation")} />
  );
}
