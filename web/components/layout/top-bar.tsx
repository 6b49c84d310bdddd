import { RiMenuLine, RiNotification3Line } from "@remixicon/react";
import { useQueryClient } from "@tanstack/react-query";
import { useMatches } from "@tanstack/react-router";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, formatTime, localeFor } from "../../lib/format";
import { type LiveStatus, useLiveState } from "../../lib/live";
import { useLiveCacheSync } from "../../lib/live-cache";
import { useUnreadNotificationCount } from "../../lib/queries/notifications";
import { BellPanel } from "../notifications/bell-panel";
import { useCurrentProfile } from "../profile-context";
import { useUserTimeZone } from "../use-user-time-zone";

const liveStyles: Record<
  LiveStatus,
  { dot: string; key: "live" | "reconnecting" | "connecting" | "offline" }
> = {
  live: { dot: "bg-emerald-500", key: "live" },
  connecting: { dot: "bg-amber-400", key: "connecting" },
  reconnecting: { dot: "bg-amber-400 animate-pulse", key: "reconnecting" },
  idle: { dot: "bg-gray-400", key: "offline" },
};

/** When data last arrived: the newest successful query or live message. */
function useLastUpdated(): number | null {
  const queryClient = useQueryClient();
  const { lastMessageAt } = useLiveState();
  const [lastFetchAt, setLastFetchAt] = useState<number | null>(() => {
    const times = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.state.dataUpdatedAt);
    const newest = Math.max(0, ...times);
    return newest > 0 ? newest : null;
  });
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === "updated" && event.action.type === "success") {
          setLastFetchAt(event.query.state.dataUpdatedAt);
        }
      }),
    [queryClient],
  );
  if (lastFetchAt === null) return lastMessageAt;
  if (lastMessageAt === null) return lastFetchAt;
  return Math.max(lastFetchAt, lastMessageAt);
}

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t, i18n } = useTranslation();
  const profile = useCurrentProfile();
  const timeZone = useUserTimeZone();
  const { status } = useLiveState();
  const lastUpdated = useLastUpdated();
  const matches = useMatches();
  const titleKey = [...matches].reverse().find((match) => match.staticData.titleKey)?.staticData.titleKey;
  const live = liveStyles[status];
  // The top bar lives as long as the signed-in frame: live messages feed the query cache from here.
  useLiveCacheSync();
  const unread = useUnreadNotificationCount(profile.companyId !== null);
  const bellCountId = useId();
  const bellPanelId = useId();
  const [bellOpen, setBellOpen] = useState(false);
  const bellRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!bellOpen) return;
    const closeOutside = (event: MouseEvent) => {
      if (!bellRef.current?.contains(event.target as Node)) setBellOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setBellOpen(false);
    };
    document.addEventListener("mousedown", closeOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("mousedown", closeOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [bellOpen]);

  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-4 border-b border-tremor-border bg-tremor-background/95 px-4 backdrop-blur md:px-6">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label={t("nav.openMenu")}
        className="rounded-tremor-small p-2 text-tremor-content hover:bg-tremor-background-subtle md:hidden"
      >
        <RiMenuLine className="h-5 w-5" aria-hidden="true" />
      </button>
      <div className="min-w-0 flex-1">
        <p className="truncate text-tremor-title font-semibold text-tremor-content-strong">
          {titleKey ? t(titleKey) : t("common.appName")}
        </p>
        <p className="truncate text-tremor-label text-tremor-content">
          {profile.companyName ?? t("settings.account.noOrganization")}
        </p>
      </div>
      <div className="flex items-center gap-3 sm:gap-5">
        <span
          className="inline-flex items-center gap-2 rounded-tremor-full border border-tremor-border px-3 py-1 text-tremor-label font-medium text-tremor-content-emphasis"
          aria-live="polite"
        >
          <span aria-hidden="true" className={`h-2 w-2 rounded-full ${live.dot}`} />
          {t(`topBar.${live.key}`)}
        </span>
        {lastUpdated !== null ? (
          <span className="hidden text-tremor-label text-tremor-content sm:inline">
            {t("topBar.lastUpdated", {
              time: formatTime(lastUpdated, { locale: localeFor(i18n.language), timeZone }),
            })}
          </span>
        ) : null}
        <div ref={bellRef} className="relative">
          <button
            type="button"
            onClick={() => setBellOpen((open) => !open)}
            aria-label={t("topBar.notifications")}
            aria-expanded={bellOpen}
            aria-controls={bellOpen ? bellPanelId : undefined}
            aria-describedby={unread !== undefined ? bellCountId : undefined}
            className="relative rounded-tremor-small p-2 text-tremor-content hover:bg-tremor-background-subtle hover:text-tremor-content-strong"
          >
            <RiNotification3Line className="h-5 w-5" aria-hidden="true" />
            {unread !== undefined && unread > 0 ? (
              <span
                aria-hidden="true"
                data-testid="bell-count"
                className="absolute -right-1 -top-1 min-w-[1.25rem] rounded-tremor-full bg-red-600 px-1 text-center text-[0.7rem] font-semibold leading-5 text-white"
              >
                {formatCount(unread, localeFor(i18n.language))}
              </span>
            ) : null}
            {unread !== undefined ? (
              <span id={bellCountId} hidden>
                {t("topBar.unread", { n: unread })}
              </span>
            ) : null}
          </button>
          {bellOpen ? <BellPanel id={bellPanelId} onClose={() => setBellOpen(false)} /> : null}
        </div>
      </div>
    </header>
  );
}
