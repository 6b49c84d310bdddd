import {
  RiArrowDownSLine,
  RiArrowRightSLine,
  RiDeleteBinLine,
  RiEditLine,
  RiFileUploadLine,
  RiRefreshLine,
} from "@remixicon/react";
import { useQueryClient } from "@tanstack/react-query";
import { Badge, Button, ProgressBar } from "@tremor/react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ConfiguredCredential, Provider } from "../../../schema/api/providers";
import { errorDescription } from "../../lib/error-messages";
import { formatCount, formatDateTime, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import {
  providerKeys,
  useDeleteCredentialsMutation,
  useSyncProviderMutation,
} from "../../lib/queries/providers";
import { useSyncProgress } from "../../lib/sync-progress";
import { toast } from "../../lib/toast";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";
import { isUnauthorized, toastSessionExpired } from "./failure-messages";

/** The run history is read on request only: its table is loaded with it. */
const SyncHistory = lazy(() => import("./sync-history").then((m) => ({ default: m.SyncHistory })));

interface ConfiguredProviderItemProps {
  credential: ConfiguredCredential;
  /** From GET /api/providers; absent while it loads or when it failed. */
  provider: Provider | undefined;
  canManage: boolean;
  onEdit: () => void;
  onImport: () => void;
}

type ConnectionBadge = { label: string; color: "blue" | "amber" | "emerald" };

export function ConfiguredProviderItem({
  credential,
  provider,
  canManage,
  onEdit,
  onImport,
}: ConfiguredProviderItemProps) {
  const { t, i18n } = useTranslation();
  const timeZone = useUserTimeZone();
  const locale = localeFor(i18n.language);
  const [historyOpen, setHistoryOpen] = useState(false);
  const displayName = provider?.displayName ?? providerNames[credential.provider];
  const importOnly = provider?.ingestion === "csv-import";
  const baseId = `connection-${credential.provider}`;

  const queryClient = useQueryClient();
  const syncedToast = (sites: number, inverters: number, message?: string) =>
    toast.success(t("settings.providers.toasts.synced"), {
      description: message || t("settings.providers.toasts.syncedDefault", { sites, inverters }),
    });
  const live = useSyncProgress(
    credential.provider,
    (end) => {
      // A history run's end is quiet: the sync itself was announced when its snapshot ended.
      if (end.historyDaysTotal !== undefined) {
      } else if (end.status === "failed") {
        toast.error(t("settings.providers.toasts.syncFailed"), {
          description: end.error ?? t("settings.providers.toasts.syncFailedDefault"),
        });
      } else {
        syncedToast(end.systemsStored, end.invertersStored);
      }
      void queryClient.invalidateQueries({ queryKey: providerKeys.credentials });
    },
    () => sync.isPending,
  );
  const sync = useSyncProviderMutation({
    onSuccess: (result) => {
      // 202: the run goes on; its end is announced by the live channel.
      if (result.status === "running") return live.forgetRequest();
      syncedToast(result.sitesCount, result.invertersCount, result.message);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return toastSessionExpired(t);
      toast.error(t("settings.providers.toasts.syncFailed"), {
        description: errorDescription(error, t("settings.providers.toasts.syncFailedDefault")),
      });
    },
  });

  const remove = useDeleteCredentialsMutation({
    onSuccess: (result) =>
      toast.success(t("settings.providers.toasts.removed"), {
        description: result.message || t("settings.providers.toasts.removedDefault"),
      }),
    onError: (error) => {
      if (isUnauthorized(error)) return toastSessionExpired(t);
      toast.error(t("settings.providers.toasts.removeFailed"), {
        description: errorDescription(error, t("settings.providers.toasts.removeFailedDefault")),
      });
    },
  });

  const progress = live.progress;
  const syncing = sync.isPending || progress !== null || credential.lastSyncStatus === "running";
  const badge: ConnectionBadge = syncing
    ? { label: t("settings.providers.status.syncing"), color: "blue" }
    : credential.status === "needs_attention"
      ? { label: t("settings.providers.status.needsAttention"), color: "amber" }
      : { label: t("settings.providers.status.connected"), color: "emerald" };

  const at = (iso: string) => formatDateTime(iso, { locale, timeZone });
  const showError =
    credential.lastError !== null &&
    (credential.status === "needs_attention" || credential.lastSyncStatus === "failed");

  const onRemove = () => {
    if (!window.confirm(t("settings.providers.confirmRemove", { provider: displayName }))) return;
    remove.mutate(credential.provider);
  };

  return (
    <li aria-labelledby={`${baseId}-name`} className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h4
              id={`${baseId}-name`}
              className="text-tremor-default font-semibold text-tremor-content-strong"
            >
              {displayName}
            </h4>
            <Badge color={badge.color}>{badge.label}</Badge>
          </div>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-tremor-label text-tremor-content">
            <div>
              <dt className="sr-only">{t("settings.providers.lastSyncLabel")}</dt>
              <dd>
                {importOnly
                  ? t("settings.providers.importOnly")
                  : credential.lastSyncAt
                    ? t("settings.providers.lastSync", { time: at(credential.lastSyncAt) })
                    : t("settings.providers.neverSynced")}
              </dd>
            </div>
            <div>
              <dt className="sr-only">{t("settings.providers.newestDataLabel")}</dt>
              <dd>
                {credential.newestDataAt
                  ? t("settings.providers.dataAsOf", { time: at(credential.newestDataAt) })
                  : t("settings.providers.noData")}
              </dd>
            </div>
            <div>
              <dt className="sr-only">{t("settings.providers.systemsLabel")}</dt>
              <dd>
                {t("settings.providers.systems", { count: formatCount(credential.systemsCount, locale) })}
              </dd>
            </div>
            {credential.nextSyncAt && !importOnly ? (
              <div>
                <dt className="sr-only">{t("settings.providers.nextSyncLabel")}</dt>
                <dd>{t("settings.providers.nextSync", { time: at(credential.nextSyncAt) })}</dd>
              </div>
            ) : null}
          </dl>
        </div>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button
              size="xs"
              variant="secondary"
              icon={RiEditLine}
              onClick={onEdit}
              aria-describedby={`${baseId}-name`}
            >
              {t("settings.providers.edit")}
            </Button>
            {importOnly ? (
              <Button
                size="xs"
                variant="secondary"
                icon={RiFileUploadLine}
                onClick={onImport}
                aria-describedby={`${baseId}-name`}
              >
                {t("settings.providers.importCsv")}
              </Button>
            ) : (
              <Button
                size="xs"
                variant="secondary"
                icon={RiRefreshLine}
                onClick={() => sync.mutate(credential.provider)}
                loading={sync.isPending}
                loadingText={t("settings.providers.syncing")}
                disabled={sync.isPending || remove.isPending}
                aria-describedby={`${baseId}-name`}
              >
                {t("settings.providers.syncNow")}
              </Button>
            )}
            <Button
              size="xs"
              variant="secondary"
              color="red"
              icon={RiDeleteBinLine}
              onClick={onRemove}
              disabled={sync.isPending || remove.isPending}
              aria-describedby={`${baseId}-name`}
            >
              {t("settings.providers.remove")}
            </Button>
          </div>
        ) : null}
      </div>
      {sync.isPending || progress ? (
        <div role="status" className="mt-3 space-y-1">
          {progress?.historyDaysTotal ? (
            <ProgressBar
              value={Math.min(100, ((progress.historyDaysDone ?? 0) / progress.historyDaysTotal) * 100)}
              showAnimation
              aria-label={t("settings.providers.syncProgress", { provider: displayName })}
            />
          ) : progress?.pagesTotal ? (
            <ProgressBar
              value={Math.min(100, (progress.pagesDone / progress.pagesTotal) * 100)}
              showAnimation
              aria-label={t("settings.providers.syncProgress", { provider: displayName })}
            />
          ) : (
            <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-tremor-brand-faint">
              <div className="h-full w-full animate-pulse rounded-full bg-tremor-brand" />
            </div>
          )}
          <p className="text-tremor-label text-tremor-content">
            {progress?.historyDaysTotal
              ? t("settings.providers.syncHistoryDays", {
                  done: formatCount(progress.historyDaysDone ?? 0, locale),
                  total: formatCount(progress.historyDaysTotal, locale),
                })
              : progress
                ? t("settings.providers.syncPages", {
                    done: formatCount(progress.pagesDone, locale),
                    total: progress.pagesTotal === null ? "…" : formatCount(progress.pagesTotal, locale),
                    systems: formatCount(progress.systemsStored, locale),
                  })
                : t("settings.providers.syncProgress", { provider: displayName })}
          </p>
        </div>
      ) : null}
      {showError ? (
        <div className="mt-3 rounded-tremor-small border border-amber-200 bg-amber-50 px-3 py-2 text-tremor-label">
          <p className="font-medium text-amber-900">
            {credential.status === "needs_attention"
              ? t("settings.providers.needsAttentionHint", { provider: displayName })
              : t("settings.providers.lastFailedHint")}
          </p>
          <p className="mt-0.5 text-amber-800">{credential.lastError}</p>
        </div>
      ) : null}
      {importOnly ? null : (
        <>
          <button
            type="button"
            className="mt-2 inline-flex items-center gap-1 text-tremor-label font-medium text-tremor-brand hover:underline"
            aria-expanded={historyOpen}
            aria-controls={`${baseId}-history`}
            aria-describedby={`${baseId}-name`}
            onClick={() => setHistoryOpen((open) => !open)}
          >
            {historyOpen ? (
              <RiArrowDownSLine className="h-4 w-4" aria-hidden="true" />
            ) : (
              <RiArrowRightSLine className="h-4 w-4" aria-hidden="true" />
            )}
            {t("settings.providers.history.toggle")}
          </button>
          {historyOpen ? (
            <Suspense fallback={<Spinner className="py-4" />}>
              <SyncHistory
                provider={credential.provider}
                routineSyncs={credential.routineSyncs}
                id={`${baseId}-history`}
              />
            </Suspense>
          ) : null}
        </>
      )}
    </li>
  );
}
