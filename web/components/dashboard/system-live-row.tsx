import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { MAX_SYSTEMS_PAGE_SIZE, type SystemsPage } from "../../../schema/api/dashboard";
import { formatEnergyWh, formatPowerW, formatTime, localeFor } from "../../lib/format";
import { useLiveSeenAt } from "../../lib/live-cache";
import { systemsPageQueryOptions } from "../../lib/queries/dashboard";
import { useUserTimeZone } from "../use-user-time-zone";
import { SystemStatusBadge } from "./system-status-badge";

/**
 * One system's live values for Site Management, from its site's page of the systems list (one
 * read per site, up to 200 systems), which live messages update. Until this session has received
 * a live message for the system it says it is waiting, for every provider rather than solis only.
 */
export function SystemLiveRow({ siteId, systemId }: { siteId: string; systemId: string }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const seenAt = useLiveSeenAt(systemId);
  const metric = useQuery({
    ...systemsPageQueryOptions({
      page: 1,
      pageSize: MAX_SYSTEMS_PAGE_SIZE,
      q: "",
      sort: "system",
      direction: "asc",
      siteId,
    }),
    select: (page: SystemsPage) => page.items.find((entry) => entry.systemId === systemId),
  }).data;

  if (seenAt === null || !metric) {
    return (
      <p className="text-tremor-label italic text-tremor-content" data-testid={`live-row-${systemId}`}>
        {t("fleet.liveRow.waiting")}
      </p>
    );
  }
  return (
    <dl
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-tremor-label text-tremor-content"
      data-testid={`live-row-${systemId}`}
      aria-label={t("fleet.liveRow.label")}
    >
      <div className="flex gap-1">
        <dt>{t("fleet.liveRow.power")}</dt>
        <dd className="font-medium text-tremor-content-strong">
          {metric.stale ? t("fleet.status.stale") : formatPowerW(metric.currentPowerW, locale)}
        </dd>
      </div>
      <div className="flex gap-1">
        <dt>{t("fleet.liveRow.today")}</dt>
        <dd className="font-medium text-tremor-content-strong">
          {formatEnergyWh(metric.todayGenerationWh, locale)}
        </dd>
      </div>
      <div className="flex gap-1">
        <dt className="sr-only">{t("fleet.liveRow.state")}</dt>
        <dd>
          <SystemStatusBadge status={metric.status} />
        </dd>
      </div>
      <div className="flex gap-1">
        <dt>{t("fleet.liveRow.dataTime")}</dt>
        <dd>{metric.dataTime ? formatTime(metric.dataTime, { locale, timeZone }) : "—"}</dd>
      </div>
    </dl>
  );
}
