import { useQuery } from "@tanstack/react-query";
import { Button, Card, List, ListItem } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { errorDescription } from "../../lib/error-messages";
import { formatDate, localeFor } from "../../lib/format";
import { actorFromProfile } from "../../lib/permissions";
import { invitesQueryOptions, useRevokeInviteMutation } from "../../lib/queries/members";
import { toast } from "../../lib/toast";
import { useCurrentProfile } from "../profile-context";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";

export function PendingInvites() {
  const { t, i18n } = useTranslation();
  const profile = useCurrentProfile();
  const timeZone = useUserTimeZone();
  const invitesQuery = useQuery(invitesQueryOptions());
  const revoke = useRevokeInviteMutation();
  const mayRevoke = can(actorFromProfile(profile), "invites:revoke");
  const locale = localeFor(i18n.language);

  const onRevoke = (inviteId: string) =>
    revoke.mutate(inviteId, {
      onSuccess: () =>
        toast.success(t("members.pending.revoked"), { description: t("members.pending.revokedBody") }),
      onError: (error) =>
        toast.error(t("members.pending.revokeFailed"), {
          description: errorDescription(error, t("members.pending.revokeFailedDefault")),
        }),
    });

  return (
    <Card>
      <h3 className="text-tremor-title font-semibold text-tremor-content-strong">
        {t("members.pending.title")}
      </h3>
      {invitesQuery.isPending ? (
        <Spinner className="py-6" />
      ) : invitesQuery.isError ? (
        <div className="mt-3">
          <ErrorState
            title={t("members.pending.loadFailed")}
            error={invitesQuery.error}
            onRetry={() => void invitesQuery.refetch()}
          />
        </div>
      ) : invitesQuery.data.length === 0 ? (
        <p className="mt-2 text-tremor-default text-tremor-content">{t("members.pending.none")}</p>
      ) : (
        <List className="mt-3">
          {invitesQuery.data.map((invite) => (
            <ListItem key={invite.id} className="gap-4">
              <div className="min-w-0">
                <p className="truncate font-medium text-tremor-content-strong">{invite.email}</p>
                <p className="text-tremor-label text-tremor-content">
                  {t(`roles.${invite.role}`)} ·{" "}
                  {t("members.pending.expires", { date: formatDate(invite.expiresAt, { locale, timeZone }) })}
                </p>
              </div>
              {mayRevoke ? (
                <Button
                  size="xs"
                  variant="secondary"
                  disabled={revoke.isPending}
                  onClick={() => onRevoke(invite.id)}
                  aria-label={t("members.pending.revokeFor", { email: invite.email })}
                >
                  {t("members.pending.revoke")}
                </Button>
              ) : null}
            </ListItem>
          ))}
        </List>
      )}
    </Card>
  );
}
