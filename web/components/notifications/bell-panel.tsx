import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { Notification } from "../../../schema/api/notifications";
import { formatDateTime, localeFor } from "../../lib/format";
import { notificationsQueryOptions, useMarkNotificationsReadMutation } from "../../lib/queries/notifications";
import { useAlertWording } from "../alerts/alert-facts";
import { SeverityBadge } from "../alerts/severity-badge";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";

function NotificationRow({ notification, onRead }: { notification: Notification; onRead: () => void }) {
  const { t, i18n } = useTranslation();
  const timeZone = useUserTimeZone();
  // The kind says opened or resolved; the heading names the rule as the Alerts screen does.
  const title = useAlertWording(localeFor(i18n.language), timeZone).heading(notification);
  return (
    <li
      aria-label={title}
      data-unread={!notification.read}
      className={`flex items-start gap-3 px-4 py-3 ${notification.read ? "" : "bg-tremor-brand-faint"}`}
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          {notification.severity ? <SeverityBadge severity={notification.severity} /> : null}
          <span className="text-tremor-label text-tremor-content">
            {t(`alerting.bell.kinds.${notification.kind}`)}
          </span>
        </div>
        <p className="mt-1 truncate font-medium text-tremor-content-strong">{title}</p>
        <p className="text-tremor-label text-tremor-content">
          {formatDateTime(notification.createdAt, { locale: localeFor(i18n.language), timeZone })}
        </p>
      </div>
      {notification.read ? null : (
        <button
          type="button"
          onClick={onRead}
          aria-label={`${t("alerting.bell.markRead")}: ${title}`}
          className="shrink-0 rounded-tremor-small px-2 py-1 text-tremor-label font-medium text-tremor-brand hover:bg-tremor-background-subtle"
        >
          {t("alerting.bell.markRead")}
        </button>
      )}
    </li>
  );
}

/** The bell's list: the member's newest notifications, unread ones marked, with mark-read actions. */
export function BellPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useQuery(notificationsQueryOptions());
  const markRead = useMarkNotificationsReadMutation();

  return (
    <section
      id={id}
      aria-label={t("topBar.notifications")}
      className="absolute right-0 z-30 mt-2 w-[22rem] max-w-[calc(100vw-2rem)] overflow-hidden rounded-tremor-default border border-tremor-border bg-tremor-background shadow-tremor-dropdown"
    >
      {query.isPending ? (
        <Spinner className="py-8" />
      ) : query.isError ? (
        <div className="p-4">
          <ErrorState
            title={t("alerting.bell.loadFailed")}
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        </div>
      ) : (
        <>
          <div className="flex items-center justify-between border-b border-tremor-border px-4 py-3">
            <h2 className="font-semibold text-tremor-content-strong">{t("alerting.bell.title")}</h2>
            <Button
              size="xs"
              variant="light"
              disabled={query.data.unread === 0}
              loading={markRead.isPending}
              onClick={() => markRead.mutate(undefined)}
            >
              {t("alerting.bell.markAllRead")}
            </Button>
          </div>
          {query.data.notifications.length === 0 ? (
            <p className="px-4 py-6 text-tremor-default text-tremor-content">{t("alerting.bell.empty")}</p>
          ) : (
            <ul
              aria-label={t("alerting.bell.title")}
              className="max-h-96 divide-y divide-tremor-border overflow-y-auto"
            >
              {query.data.notifications.map((notification) => (
                <NotificationRow
                  key={notification.id}
                  notification={notification}
                  onRead={() => markRead.mutate([notification.id])}
                />
              ))}
            </ul>
          )}
          <div className="border-t border-tremor-border px-4 py-3">
            <Link
              to="/app/alerts"
              onClick={onClose}
              className="text-tremor-default font-medium text-tremor-brand hover:underline"
            >
              {t("alerting.bell.viewAlerts")}
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
