import { RiLockLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { actorFromProfile } from "../../lib/permissions";
import { useCurrentProfile } from "../profile-context";
import { EmptyState } from "../ui/empty-state";
import { InviteForm } from "./invite-form";
import { MemberList } from "./member-list";
import { PendingInvites } from "./pending-invites";

/** Members, invites and roles of the signed-in user's organisation; used by the admin page and Settings. */
export function MemberManagement({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);

  if (!can(actor, "users:read")) {
    return (
      <EmptyState
        icon={RiLockLine}
        title={t("errors.noAccessTitle")}
        description={profile.role === "superAdmin" ? t("members.superAdminNoOrg") : t("errors.noAccessBody")}
      />
    );
  }

  return (
    <div className={compact ? "space-y-6" : "space-y-8"}>
      {can(actor, "users:invite") ? <InviteForm /> : null}
      <MemberList />
      {can(actor, "invites:read") ? <PendingInvites /> : null}
    </div>
  );
}
