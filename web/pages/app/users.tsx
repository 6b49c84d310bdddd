import { useTranslation } from "react-i18next";
import { MemberManagement } from "../../components/members/member-management";
import { PageHeader } from "../../components/ui/page-header";

export function UserManagementPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.users")} description={t("members.pageSubtitle")} />
      <MemberManagement />
    </>
  );
}
