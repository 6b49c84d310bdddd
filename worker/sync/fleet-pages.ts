import type { LiveMessage } from "../../schema/live";
import {
  orgVersionStatement,
  pageInvertersStatement,
  pageSystemsStatement,
  toDirectory,
  versionFrom,
} from "../data/fleet-directory";
import { pageMetadataStatements, type SyncScope } from "../data/monitoring";
import { pagePlantSiteStatements } from "../data/plant-sites";
import { detectAfterPage, openCountMessage } from "../engines/detection";
import type { Env } from "../env";
import type { DirectoryEntry, StoredPage, SystemPoint } from "../fleet/types";
import { type Db, runBatch } from "../lib/db";
import { fleetStoreFor } from "../lib/fleet-store";
import type { NormalisedAlarm, NormalisedSystem, ProviderSnapshot } from "../providers/types";
import { liveMessageOf } from "../realtime/publish";

/** A past point of a system (a CSV row, a vendor history answer), by the vendor's system id. */
export interface HistoryPoint {
  providerSystemId: string;
  time: number;
  powerW: number | null;
  energyTodayWh: number | null;
}

export interface PageInput {
  systems: NormalisedSystem[];
  alarms: NormalisedAlarm[] | null;
  /** Older points of the page's systems, stored beside their live values. */
  history?: HistoryPoint[];
  /** Whether the systems' new values go out to the organisation's sockets. */
  publish: boolean;
  /** Set when the systems come from a read of the vendor's plant list (then at that read's start). */
  listedAt?: number;
}

/**
 * Stores one page of systems: their metadata and alarms (and sites for new plants with
 * coordinates, when the organisation wants them) in one D1 batch (which also reads back
 * the page's directory and D1's change counter around the writes), then their points in the
 * organisation's fleet store, which rolls them up and publishes the live messages itself.
 */
export async function storeSystemsPage(
  deps: { db: Db; env: Env },
  scope: SyncScope,
  input: PageInput,
): Promise<StoredPage & { directory: DirectoryEntry[] }> {
  const { db } = deps;
  const ids = input.systems.map((s) => s.providerSystemId);
  const metadata = pageMetadataStatements(db, scope, input.systems, input.alarms, input.listedAt);
  const results = await runBatch(db, [
    orgVersionStatement(db, scope.orgId),
    ...metadata,
    // Plants with coordinates become sites in the same transaction, so the directory read below has them.
    ...pagePlantSiteStatements(db, scope, input.systems),
    orgVersionStatement(db, scope.orgId),
    pageSystemsStatement(db, scope.orgId, scope.provider, ids),
    pageInvertersStatement(db, scope.orgId, scope.provider, ids),
  ]);
  const versionOf = (index: number) => versionFrom(results.at(index));
  const directory = toDirectory(results.at(-2)?.results, results.at(-1)?.results);
  const byVendorId = new Map(directory.map((entry) => [entry.providerSystemId, entry]));

  const points: SystemPoint[] = [];
  const snapshot: ProviderSnapshot = { systems: input.systems, alarms: input.alarms };
  const messages: LiveMessage[] = [];
  for (const system of input.systems) {
    const entry = byVendorId.get(system.providerSystemId);
    if (!entry || system.dataTime === null) continue;
    const inverterIds = new Map(entry.inverters.map((inv) => [inv.providerInverterId, inv.inverterId]));
    points.push({
      systemId: entry.systemId,
      time: system.dataTime,
      state: system.state,
      powerW: system.powerW,
      energyTodayWh: system.energyTodayWh,
      energyTotalWh: system.energyTotalWh,
      inverters: system.inverters.flatMap((inv) => {
        const inverterId = inverterIds.get(inv.providerInverterId);
        return inverterId === undefined || inv.dataTime === null
          ? []
          : [
              {
                inverterId,
                time: inv.dataTime,
                state: inv.state,
                powerW: inv.powerW,
                energyTodayWh: inv.energyTodayWh,
                temperatureC: inv.temperatureC,
              },
            ];
      }),
    });
    if (input.publish)
      messages.push(
        liveMessageOf(scope.provider, system, { id: entry.systemId, siteId: entry.siteId }, snapshot),
      );
  }
  // The vendor alarms' history (the metadata's last statement) records each opening and end
  // once: when it wrote, the open alerts changed, and the sockets hear the count after the
  // page's live values.
  if (input.alarms !== null && (results[metadata.length]?.meta.changes ?? 0) > 0) {
    messages.push(await openCountMessage(db, scope.orgId));
  }
  for (const point of input.history ?? []) {
    const entry = byVendorId.get(point.providerSystemId);
    if (!entry) continue;
    points.push({
      systemId: entry.systemId,
      time: point.time,
      state: "online",
      powerW: point.powerW,
      energyTodayWh: point.energyTodayWh,
      energyTotalWh: null,
      inverters: [],
    });
  }
  const stored = await fleetStoreFor(deps.env, scope.orgId).storePage(scope.orgId, {
    directory,
    versions: { before: versionOf(0), after: versionOf(-3) },
    points,
    messages,
  });
  // Fault detection over the page's systems; it logs its own failures, never failing the page.
  await detectAfterPage(deps, scope.orgId, [...new Set(points.map((p) => p.systemId))], scope.now);
  return { ...stored, directory };
}
