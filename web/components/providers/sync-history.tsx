import { useQuery } from "@tanstack/react-query";
import { Badge, Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@tremor/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ProviderId } from "../../../schema/api/providers";
import type { SyncOutcome } from "../../../schema/domain";
import { formatCount, formatDateTime, localeFor } from "../../lib/format";
import { syncRunsQueryOptions } from "../../lib/queries/providers";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { useUserTimeZone } from "../use-user-time-zone";

const outcomeColors: Record<SyncOutcome, "blue" | "emerald" | "amber" | "red"> = {
  running: "blue",
  success: "emerald",
  partial: "amber",
  failed: "red",
};

/**
 * The last 20 sync runs of one connection, newest first: failures, runs members started and runs
 * that took more than one invocation. Scheduled runs that went well are only counted.
 */
export function SyncHistory({
  provider,
  routineSyncs,
  id,
}: {
  provider: ProviderId;
  routineSyncs: number;
  id: string;
}) {
  const { t, i18n } = useTranslation();
  const timeZone = useUserTimeZone();
  const locale = localeFor(i18n.language);
  const runsQuery = useQuery(syncRunsQueryOptions(provider));

  let content: ReactNode;
  if (runsQuery.isPending) content = <Spinner className="py-4" />;
  else if (runsQuery.isError) {
    content = (
      <ErrorState
        title={t("settings.providers.history.failed")}
        error={runsQuery.error}
        onRetry={() => void runsQuery.refetch()}
      />
    );
  } else if (runsQuery.data.length === 0) {
    content = (
      <p className="text-tremor-default text-tremor-content">{t("settings.providers.history.empty")}</p>
    );
  } else {
    content = (
      <Table>
        <TableHead>
          <TableRow>
            <TableHeaderCell>{t("settings.providers.history.started")}</TableHeaderCell>
            <TableHeaderCell>{t("settings.providers.history.trigger")}</TableHeaderCell>
            <TableHeaderCell>{t("settings.providers.history.result")}</TableHeaderCell>
            <TableHeaderCell>{t("settings.providers.history.imported")}</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {runsQuery.data.map((run) => (
            <TableRow key={run.id}>
              <TableCell className="whitespace-nowrap">
                {formatDateTime(run.startedAt, { locale, timeZone })}
              </TableCell>
              <TableCell>{t(`settings.providers.history.triggers.${run.trigger}`)}</TableCell>
              <TableCell className="whitespace-normal">
                <Badge color={outcomeColors[run.status]}>
                  {t(`settings.providers.history.outcomes.${run.status}`)}
                </Badge>
                {run.error ? <p className="mt-1 text-tremor-label text-red-700">{run.error}</p> : null}
              </TableCell>
              <TableCell className="whitespace-normal">
                {t("settings.providers.history.counts", {
                  sites: formatCount(run.sitesCount, locale),
                  inverters: formatCount(run.invertersCount, locale),
                  readings: formatCount(run.readingsCount, locale),
                })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }

  return (
    <div id={id} className="mt-3 rounded-tremor-default border border-tremor-border p-3">
      <p className="mb-2 text-tremor-label text-tremor-content">
        {t("settings.providers.history.routine", { total: formatCount(routineSyncs, locale) })}
      </p>
      {content}
    </div>
  );
}
