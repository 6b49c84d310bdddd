import { RiComputerLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Callout } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { errorDescription } from "../../lib/error-messages";
import { formatDateTime, localeFor } from "../../lib/format";
import { sessionsQueryOptions, useSignOutEverywhereMutation } from "../../lib/queries/account";
import { toast } from "../../lib/toast";
import { useUserTimeZone } from "../use-user-time-zone";

/** Settings → Account: where the account is signed in, with "sign out everywhere else". */
export function SessionList() {
  const { t, i18n } = useTranslation();
  const timeZone = useUserTimeZone();
  const locale = localeFor(i18n.language);
  const sessions = useQuery(sessionsQueryOptions());
  const signOut = useSignOutEverywhereMutation();
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  const signOutEverywhere = () =>
    signOut.mutate(undefined, {
      onSuccess: (result) =>
        toast.success(t("settings.account.signedOutEverywhere"), {
          description: t("settings.account.signedOutEverywhereBody", { count: result.ended }),
        }),
      onError: (error) =>
        toast.error(t("settings.account.signOutFailed"), {
          description: errorDescription(error, t("settings.account.signOutFailedDefault")),
        }),
    });

  return (
    <section className="space-y-3" aria-labelledby="account-sessions-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id="account-sessions-title"
          className="text-tremor-default font-semibold text-tremor-content-strong"
        >
          {t("settings.account.sessions")}
        </h3>
        <Button
          type="button"
          variant="secondary"
          onClick={signOutEverywhere}
          loading={signOut.isPending}
          disabled={others === 0}
        >
          {t("settings.account.signOutEverywhere")}
        </Button>
      </div>
      {sessions.isPending ? (
        <p className="text-tremor-default text-tremor-content">{t("settings.account.sessionsLoading")}</p>
      ) : sessions.isError ? (
        <Callout title={t("settings.account.sessionsError")} color="red">
          {errorDescription(sessions.error, t("settings.account.sessionsErrorDefault"))}
        </Callout>
      ) : sessions.data.length === 0 ? (
        <p className="text-tremor-default text-tremor-content">{t("settings.account.sessionsEmpty")}</p>
      ) : (
        <ul className="divide-y divide-tremor-border rounded-tremor-default border border-tremor-border">
          {sessions.data.map((session) => (
            <li key={session.id} className="flex items-start gap-3 p-3">
              <RiComputerLine className="mt-0.5 size-5 shrink-0 text-tremor-content" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="text-tremor-default font-medium text-tremor-content-strong">
                  {session.device}
                  {session.current ? (
                    <Badge className="ml-2" color="emerald" size="xs">
                      {t("settings.account.thisDevice")}
                    </Badge>
                  ) : null}
                </p>
                <p className="text-tremor-label text-tremor-content">
                  {t("settings.account.sessionDetails", {
                    ip: session.ip ?? t("settings.account.unknownAddress"),
                    lastSeen: formatDateTime(session.lastSeenAt, { locale, timeZone }),
                    signedIn: formatDateTime(session.createdAt, { locale, timeZone }),
                  })}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
