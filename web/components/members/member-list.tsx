import { RiDeleteBinLine, RiTeamLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import {
  Badge,
  Button,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { Member } from "../../../schema/api/members";
import { assignableRoles, can, canManageRole, roleSchema } from "../../../schema/roles";
import { errorDescription } from "../../lib/error-messages";
import { formatDate, localeFor } from "../../lib/format";
import { actorFromProfile } from "../../lib/permissions";
import { useChangeRoleMutation, useRemoveUserMutation, usersQueryOptions } from "../../lib/queries/members";
import { toast } from "../../lib/toast";
import { useCurrentProfile } from "../profile-context";
import { EmptyState } from "../ui/empty-state";
import { ErrorState } from "../ui/error-state";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";

export function MemberList() {
  const { t, i18n } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const timeZone = useUserTimeZone();
  const usersQuery = useQuery(usersQueryOptions());
  const changeRole = useChangeRoleMutation();
  const removeUser = useRemoveUserMutation();
  const locale = localeFor(i18n.language);

  const onRoleChange = (member: Member, value: string) => {
    const parsed = roleSchema.safeParse(value);
    if (!parsed.success || parsed.data === member.role) return;
    changeRole.mutate(
      { userId: member.id, role: parsed.data },
      {
        onSuccess: () =>
          toast.success(t("members.toasts.roleUpdated"), {
            description: t("members.toasts.roleUpdatedBody"),
          }),
        onError: (error) =>
          toast.error(t("members.toasts.roleFailed"), {
            description: errorDescription(error, t("members.toasts.roleFailedDefault")),
          }),
      },
    );
  };

  const onRemove = (member: Member) => {
    if (!window.confirm(t("members.confirmRemove", { email: member.email }))) return;
    removeUser.mutate(member.id, {
      onSuccess: () =>
        toast.success(t("members.toasts.removed"), { description: t("members.toasts.removedBody") }),
      onError: (error) =>
        toast.error(t("members.toasts.removeFailed"), {
          description: errorDescription(error, t("members.toasts.removeFailedDefault")),
        }),
    });
  };

  if (usersQuery.isPending) return <Spinner className="py-10" />;
  if (usersQuery.isError) {
    return (
      <ErrorState
        title={t("members.loadFailed")}
        error={usersQuery.error}
        onRetry={() => void usersQuery.refetch()}
      />
    );
  }
  if (usersQuery.data.length === 0) {
    return (
      <EmptyState icon={RiTeamLine} title={t("members.noUsers")} description={t("members.noUsersBody")} />
    );
  }

  const roleOptions = assignableRoles(profile.role);

  return (
    <Card className="p-0">
      <div className="px-6 pt-5">
        <h3 className="text-tremor-title font-semibold text-tremor-content-strong">{t("members.title")}</h3>
        <p className="text-tremor-default text-tremor-content">{t("members.subtitle")}</p>
      </div>
      <Table className="mt-4">
        <TableHead>
          <TableRow>
            <TableHeaderCell>{t("members.name")}</TableHeaderCell>
            <TableHeaderCell>{t("members.email")}</TableHeaderCell>
            <TableHeaderCell>{t("members.role")}</TableHeaderCell>
            <TableHeaderCell>{t("members.joined")}</TableHeaderCell>
            <TableHeaderCell className="text-right">{t("members.actions")}</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {usersQuery.data.map((member) => {
            const isSelf = member.id === profile.id;
            const manageable = !isSelf && canManageRole(profile.role, member.role);
            const mayChangeRole = manageable && can(actor, "users:changeRole");
            const mayRemove = manageable && can(actor, "users:remove");
            return (
              <TableRow key={member.id}>
                <TableCell className="font-medium text-tremor-content-strong">{member.fullName}</TableCell>
                <TableCell id={`member-email-${member.id}`}>{member.email}</TableCell>
                <TableCell>
                  {mayChangeRole ? (
                    <NativeSelect
                      // Named by the row's e-mail; the column header says it is the role.
                      aria-labelledby={`member-email-${member.id}`}
                      value={member.role}
                      disabled={changeRole.isPending}
                      onChange={(event) => onRoleChange(member, event.target.value)}
                      className="max-w-[14rem]"
                    >
                      {roleOptions.map((option) => (
                        <option key={option} value={option}>
                          {t(`roles.${option}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : (
                    t(`roles.${member.role}`)
                  )}
                </TableCell>
                <TableCell>{formatDate(member.createdAt, { locale, timeZone })}</TableCell>
                <TableCell className="text-right">
                  {isSelf ? (
                    <Badge color="blue">{t("members.you")}</Badge>
                  ) : mayRemove ? (
                    <Button
                      size="xs"
                      variant="secondary"
                      color="red"
                      icon={RiDeleteBinLine}
                      disabled={removeUser.isPending}
                      onClick={() => onRemove(member)}
                      aria-describedby={`member-email-${member.id}`}
                    >
                      {t("members.remove")}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
