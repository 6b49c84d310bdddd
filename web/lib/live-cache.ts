import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import type { AlertSummary } from "../../schema/api/alerts";
import type { SystemsPage, SystemsPageQuery } from "../../schema/api/dashboard";
import type { DashboardMetric } from "../../schema/api/metrics";
import { type LiveMessage, type LiveSystemUpdate, MAX_WATCHED_IDS } from "../../schema/live";
import type { LiveWatch } from "../../schema/live-client";
import { metricReadings } from "../../schema/metric-readings";
import { localDate } from "../components/dashboard/local-day";
import { setLiveWatch, subscribeLiveMessages } from "./live";
import { alertKeys } from "./queries/alerts";
import { dashboardKeys } from "./queries/metrics";
import { notificationKeys } from "./queries/notifications";

/**
 * Live messages go into the query cache: a system update replaces that system's entry wherever
 * it is shown (the systems pages: the dashboard's list, Site Management's live rows) at once,
 * and the fleet's totals and the pages' order are read again from the API, which computes them
 * (the fleet chart's hourly means come from the server's rollups, read again every few
 * minutes); alerts_changed sets the unresolved count at once.
 */

const statusOfState = (state: LiveSystemUpdate["state"]): DashboardMetric["status"] =>
  state === 1 ? "online" : state === 3 ? "fault" : "offline";

/** A metric entry with a live update's values, fresh as of the update's data time. */
export function mergeLiveUpdate(metric: DashboardMetric, update: LiveSystemUpdate): DashboardMetric {
  const dataTimeMs = Date.parse(update.timestamp);
  const powerW = update.powerW ?? update.pac ?? metric.currentPowerW;
  const reportedWh =
    update.energyTodayWh ?? (update.etoday === null ? null : Math.round(update.etoday * 1000));
  // A counter from a previous plant-local day is not today's energy (the server's rule too).
  const fromToday =
    Number.isFinite(dataTimeMs) &&
    localDate(dataTimeMs, metric.timezone) === localDate(Date.now(), metric.timezone);
  const todayWh = reportedWh === null ? metric.todayGenerationWh : fromToday ? reportedWh : 0;
  const capacityW =
    update.capacityW !== null && update.capacityW > 0 ? update.capacityW : metric.capacity * 1000;
  const inverters =
    update.inverters.length > 0
      ? update.inverters.map((inverter) => {
          const inverterW = inverter.pac ?? 0;
          return {
            sn: inverter.sn,
            state: inverter.state,
            currentPowerW: inverterW,
            pac: inverterW,
            power: inverterW,
            energyWh: inverter.etodayKWh === null ? 0 : Math.round(inverter.etodayKWh * 1000),
            temperatureC: inverter.inverterTemperature,
          };
        })
      : metric.inverters;
  return {
    ...metric,
    stationName: update.stationName || metric.stationName,
    siteId: update.siteId ?? metric.siteId,
    ...metricReadings(powerW, todayWh, capacityW),
    state: update.state,
    status: statusOfState(update.state),
    stale: false,
    dataTime: update.timestamp,
    inverters,
  };
}

const isNewer = (update: LiveSystemUpdate, dataTime: string | null) =>
  dataTime === null || Date.parse(update.timestamp) >= Date.parse(dataTime);

function applySystemUpdate(queryClient: QueryClient, update: LiveSystemUpdate): void {
  markLiveSeen(update.systemId);
  for (const [queryKey, page] of queryClient.getQueriesData<SystemsPage>({
    queryKey: dashboardKeys.systemPages(),
  })) {
    const index = page?.items.findIndex((metric) => metric.systemId === update.systemId) ?? -1;
    const current = page?.items[index];
    if (!page || !current || !isNewer(update, current.dataTime)) continue;
    const items = [...page.items];
    items[index] = mergeLiveUpdate(current, update);
    queryClient.setQueryData(queryKey, { ...page, items });
  }
  readTotalsAgain(queryClient);
}

/**
 * The totals and the pages' order are read again at most this often after live messages (the
 * dashboard's polling reads them between): a large fleet's sync stores a page every second or
 * two, and each would have every open screen read them again. Shown systems are patched at once.
 */
export const TOTALS_READ_INTERVAL_MS = 10_000;
const totalsReadAt = new WeakMap<QueryClient, number>();

/** The fleet's totals and the pages' order come from the API: read them again after new values. */
function readTotalsAgain(queryClient: QueryClient): void {
  const now = Date.now();
  if (now - (totalsReadAt.get(queryClient) ?? Number.NEGATIVE_INFINITY) < TOTALS_READ_INTERVAL_MS) return;
  totalsReadAt.set(queryClient, now);
  // A read already under way is not restarted.
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.summary() }, { cancelRefetch: false });
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.systemPages() }, { cancelRefetch: false });
}

/**
 * What the screens on view show: the systems of the dashboard's page and the sites whose systems
 * Site Management lists; null (everything) while a page is loading or when that is more than a
 * socket may watch.
 */
export function watchOfScreens(queryClient: QueryClient): LiveWatch {
  const systemIds: string[] = [];
  const siteIds: string[] = [];
  for (const { queryKey, state } of queryClient
    .getQueryCache()
    .findAll({ queryKey: dashboardKeys.systemPages(), type: "active" })) {
    const siteId = (queryKey[2] as SystemsPageQuery).siteId;
    const page = state.data as SystemsPage | undefined;
    if (siteId) siteIds.push(siteId);
    // A page still loading will show systems not known yet: everything until they are known.
    else if (!page) return null;
    else for (const metric of page.items) systemIds.push(metric.systemId);
  }
  return systemIds.length + siteIds.length > MAX_WATCHED_IDS ? null : { systemIds, siteIds };
}

function applyAlertsChanged(queryClient: QueryClient, openCount: number): void {
  queryClient.setQueryData<AlertSummary>(alertKeys.summary(), (summary) =>
    summary ? { ...summary, open: openCount } : summary,
  );
  // The count is known; the lists and the per-severity breakdown are read again where shown, and
  // the bell's notifications (an opened or resolved alert notifies the members).
  void queryClient.invalidateQueries({ queryKey: alertKeys.all });
  void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}

export function applyLiveMessage(queryClient: QueryClient, message: LiveMessage): void {
  switch (message.type) {
    case "solis_realtime_update":
    case "realtime_update":
      applySystemUpdate(queryClient, message.data);
      return;
    case "systems_updated":
      readTotalsAgain(queryClient);
      return;
    case "alerts_changed":
      applyAlertsChanged(queryClient, message.data.openCount);
      return;
    default:
      return;
  }
}

/** Which systems have had a live message in this session, and when the latest came (epoch ms). */
const seenAt = new Map<string, number>();
const seenListeners = new Set<() => void>();

function markLiveSeen(systemId: string): void {
  seenAt.set(systemId, Date.now());
  for (const listener of seenListeners) listener();
}

export function resetLiveSeen(): void {
  if (seenAt.size === 0) return;
  seenAt.clear();
  for (const listener of seenListeners) listener();
}

function subscribeSeen(listener: () => void): () => void {
  seenListeners.add(listener);
  return () => {
    seenListeners.delete(listener);
  };
}

/** When the latest live message of this session for the system arrived, or null before the first. */
export function useLiveSeenAt(systemId: string): number | null {
  return useSyncExternalStore(
    subscribeSeen,
    () => seenAt.get(systemId) ?? null,
    () => null,
  );
}

/** Mounted once in the signed-in frame: routes the socket's messages into the query cache. */
export function useLiveCacheSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let connectedBefore = false;
    const unsubscribe = subscribeLiveMessages((message) => {
      if (message.type === "connected") {
        // Updates sent while the socket was down were missed: read the live screens' data again.
        if (connectedBefore) {
          void queryClient.invalidateQueries({ queryKey: dashboardKeys.summary() });
          void queryClient.invalidateQueries({ queryKey: dashboardKeys.systemPages() });
          void queryClient.invalidateQueries({ queryKey: alertKeys.all });
        }
        connectedBefore = true;
        return;
      }
      applyLiveMessage(queryClient, message);
    });
    // The socket carries the updates of what is on screen; the rest come as a count.
    setLiveWatch(watchOfScreens(queryClient));
    const unwatch = queryClient.getQueryCache().subscribe(() => setLiveWatch(watchOfScreens(queryClient)));
    return () => {
      unsubscribe();
      unwatch();
      setLiveWatch(null);
      resetLiveSeen();
    };
  }, [queryClient]);
}
