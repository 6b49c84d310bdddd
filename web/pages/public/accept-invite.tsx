import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { QueryScope } from "../../components/query-scope";
import { PlainButton } from "../../components/ui/plain-button";
import { useVerificationStrings } from "../../lib/i18n/verification";
import { useAcceptInviteMutation } from "../../lib/queries/auth";
import { profileQueryOptions } from "../../lib/queries/user";
import { logout } from "../../lib/sign-in";
import { toast } from "../../lib/toast";
import { toastFailure } from "./toast-failure";

/**
 * A signed-in user (typically one without organisation) opening an invite link joins its organisation.
 * Its own chunk, with the query code: only signed-in visitors with an invite link download it.
 */
export function AcceptInvite({ inviteToken }: { inviteToken: string }) {
  return (
    <QueryScope>
      <AcceptInviteCard inviteToken={inviteToken} />
    </QueryScope>
  );
}

function AcceptInviteCard({ inviteToken }: { inviteToken: string }) {
  useVerificationStrings();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accept = useAcceptInviteMutation();
  // The signed-in account, as the session's profile fetch (SessionBootstrap) answers it.
  const profile = useQuery(profileQueryOptions()).data;
  const email = profile?.email ?? "";
  // A never-verified account leaves its organisation (which only it belongs to) when it accepts.
  const leaves = profile !== undefined && !profile.emailVerified && profile.companyName !== null;

  const onAccept = () =>
    accept.mutate(inviteToken, {
      onSuccess: (profile) => {
        toast.success(t("auth.acceptInvite.successTitle"), {
          description: t("auth.acceptInvite.successBody", { company: profile.companyName ?? "" }),
        });
        void navigate({ to: "/app/dashboard" });
      },
      onError: (error) =>
        toastFailure(t("auth.acceptInvite.failedTitle"), error, t("auth.acceptInvite.failedDefault")),
    });

  return (
    <div className="space-y-4">
      <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
        {t("auth.acceptInvite.title")}
      </h1>
      <p className="text-tremor-default text-tremor-content">{t("auth.acceptInvite.body", { email })}</p>
      {leaves ? (
        <p role="note" className="rounded-tremor-default bg-amber-50 p-3 text-tremor-default text-amber-800">
          {t("verification.invite.movesAccount", { company: profile.companyName })}
        </p>
      ) : null}
      <PlainButton
        className="w-full"
        onClick={onAccept}
        loading={accept.isPending}
        loadingText={t("auth.acceptInvite.accepting")}
      >
        {t("auth.acceptInvite.submit")}
      </PlainButton>
      <PlainButton className="w-full" variant="secondary" onClick={logout}>
        {t("auth.acceptInvite.otherAccount")}
      </PlainButton>
    </div>
  );
}
