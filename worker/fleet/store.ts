import { DurableObject } from "cloudflare:workers";
import type { AnalyticsQuery, AnalyticsRange, AnalyticsRecord } from "../../schema/api/analytics";
import type { DashboardSummary, SystemsPage, SystemsPageQuery } from "../../schema/api/dashboard";
import type { FleetSeries } from "../../schema/api/fleet-series";
import type {
  SiteCountsAnswer,
  SiteFilter,
  SiteGroup,
  SiteGroupsQuery,
  SiteListQuery,
  SiteMap,
} from "../../schema/api/site-lists";
import { frameOf, LIVE_CLOSE_ACCESS_REVOKED, LIVE_SUBPROTOCOL, type LiveMessage } from "../../schema/live";
import { readFullDirectory, readVersions } from "../data/fleet-directory";
import { readSiteListRows, type SiteListRows } from "../data/site-lists";
import { daysToBackfill, GAP_SLOT_MS, type GapOptions, HISTORY_DAYS } from "../domain/history/gaps";
import type { LearnedModel } from "../domain/solar/expectation";
import { type DetectionRun, detectAlerts } from "../engines/detection";
import type { Env } from "../env";
import { createDb } from "../lib/db";
import { gzipText } from "../lib/gzip";
import { yieldTurn } from "../lib/yield-turn";
import {
  closeIfExpired,
  closeIfFlooding,
  closeSessionSocket,
  openSockets,
  readSocketSession,
  refuseBeyondSessionLimit,
  type SocketSession,
  sessionTag,
} from "../realtime/socket-session";
import { readDetectionInput } from "./data/detection";
import {
  applyDirectory,
  countSystems,
  deleteMeta,
  hasSystems,
  readMeta,
  replaceDirectory,
  writeMeta,
} from "./data/directory";
import { readHistoryCoverage } from "./data/history";
import { importLegacyRows } from "./data/legacy";
import {
  type LossTotalsRow,
  lossesBySiteAndDate,
  lossesBySiteAndPeriod,
  lossRowCounts,
  queueDayOf,
  systemZones,
} from "./data/losses";
import { learnedModels } from "./data/models";
import { energyBySystem, producingHoursBySystem } from "./data/monthly-energy";
import { allLiveValues, liveValues, summedHourlyPower, tableRowCounts } from "./data/reads";
import { pruneReadings, type RetentionRun } from "./data/retention";
import { type HistoryDayInput, storeHistoryDay, storePoints } from "./data/writes";
import { createFleetDb, type FleetDb, migrateFleetDb } from "./db";
import { type LossesPass, runLossesPass, zoneWindows } from "./losses";
import { buildSystemAnalytics, toRecord } from "./read-models/analytics";
import { type AnalyticsPage, analyticsPage } from "./read-models/analytics-page";
import { type SiteRoster, siteCounts } from "./read-models/fleet-summary";
import {
  buildFleetMetrics,
  energyVsExpectedBySite,
  type FleetMetricsSnapshot,
  fallbackTotals,
  wholeMetricsJson,
} from "./read-models/metrics";
import { buildFleetSeries } from "./read-models/series";
import {
  buildSitesIndex,
  type EnhancedSiteListItem,
  enhancedSitesPage,
  type SiteListItem,
  type SitesIndex,
  type SitesPage,
  siteGroups,
  siteCounts as siteListCounts,
  siteMap,
  sitesPage,
} from "./read-models/sites";
import { systemsPage } from "./read-models/systems-page";
import type { DetectionSystem, FleetPage, LegacyRows, LiveValues, StoredPage } from "./types";

export interface StoredHistoryDay {
  points: number;
  /** Points that were not stored before. */
  pointsStored: number;
  hoursRolledUp: number;
  daysRolledUp: number;
  /** Rows inserted or updated in the store (SQLite's change count): 0 when the day was stored already. */
  rowsWritten: number;
}

/** One page of the dashboard metrics answer. */
export interface MetricsAnswer {
  /** The page's key: it changes when any entry on it may have. */
  key: string;
  /** Every system of the organisation, over all pages. */
  total: number;
  pageCount: number;
  /** The page's JSON, gzipped; null when the caller already holds the page with this key. */
  gzip: Uint8Array | null;
}

interface SocketAttachment extends SocketSession {
  userId: string;
}

/** A read model is reused while nothing it read changed, and for at most this long (stale flags, today's window). */
export const READ_MODEL_MAX_AGE_MS = 60_000;
/**
 * From this many systems a read model is rebuilt in the background after a write, the last one
 * answering meanwhile: a 20,000-system fleet's dashboard takes ~400 ms to build and its fleet
 * series over a second, while its sync pages arrive every few seconds. Smaller fleets rebuild
 * before answering, so they see every write at once.
 */
export const BACKGROUND_REBUILD_FROM_SYSTEMS = 2_000;
/** Raw 5-minute points are kept this many days unless RAW_RETENTION_DAYS says otherwise. */
export const DEFAULT_RAW_RETENTION_DAYS = 35;

const retentionDays = (value: string | undefined, fallback: number) => {
  const days = Number(value ?? fallback);
  return Number.isFinite(days) && days > 0 ? days : fallback;
};

/**
 * Where raw points end at `now`: systems' after RAW_RETENTION_DAYS, inverters' after
 * INVERTER_RAW_RETENTION_DAYS (the same unless set). Inverter points are two thirds of a
 * two-inverter system's raw bytes, so keeping them shorter is what fits the largest fleets in
 * one store (see docs/scale.md).
 */
export function rawRetentionCutoffs(
  env: Pick<Env, "RAW_RETENTION_DAYS" | "INVERTER_RAW_RETENTION_DAYS">,
  now: number,
): { system_readings: number; inverter_readings: number } {
  const systemDays = retentionDays(env.RAW_RETENTION_DAYS, DEFAULT_RAW_RETENTION_DAYS);
  const inverterDays = retentionDays(env.INVERTER_RAW_RETENTION_DAYS, systemDays);
  return { system_readings: now - systemDays * DAY_MS, inverter_readings: now - inverterDays * DAY_MS };
}
/** Rows one retention run removes at most; a larger backlog continues in the next run. */
export const RETENTION_ROWS_PER_RUN = 50_000;
const DAY_MS = 86_400_000;
const POINTS_PER_STATEMENT = 2_000;
/** A run that hit its budget continues this soon; a finished pass comes back the next day. */
const RETENTION_CONTINUE_MS = 1_000;
/**
 * Fault detection over every system runs this often while the store holds systems, so plants
 * that stopped reporting (and send no page to be evaluated after) are found without a cron.
 */
export const DETECTION_INTERVAL_MS = 5 * 60_000;

/** Loss accounting runs hourly (finished days are queued then), continuing a second later while days remain. */
export const LOSSES_INTERVAL_MS = 60 * 60_000;
const LOSSES_CONTINUE_MS = 1_000;
/** A pass's share of one alarm: the rest of the work continues in the next. */
const LOSSES_PASS_MS = 3_000;
/** Days a history run filled are accounted this soon after (a run stores many in a row). */
const LOSSES_AFTER_HISTORY_MS = 60_000;

const META_ORG = "org";
const META_DIRECTORY_VERSION = "directory_version";
const META_RETENTION_CURSOR = "retention_cursor";
const META_RETENTION_DUE = "retention_due";
const META_DETECTION_DUE = "detection_due";
const META_LOSSES_DUE = "losses_due";
const META_LOSSES_QUEUED = "losses_queued";

/** The part of a read model's inputs that D1's counters make (after the instance and the write count). */
const d1Inputs = (inputs: string) => inputs.split("|").slice(2).join("|");

interface CacheEntry {
  /** What the value was built from. */
  inputs: string;
  /** Names this very value (its inputs and when it was built). */
  key: string;
  builtAt: number;
  value: unknown;
  /** Systems in the directory when it was built. */
  systems: number;
}

/**
 * One instance per organisation, addressed by the organisation id D1 resolved for the caller
 * (worker/lib/fleet-store.ts). It holds the organisation's fleet data in its SQLite storage
 * — readings, rollups, live values, and a mirror of D1's system metadata — answers the read
 * models from it, and holds the organisation's hibernating sockets, so the object that stores a
 * page publishes its live update itself.
 *
 * Every method takes the organisation id and refuses one that is not the object's own: an object
 * never answers for another organisation, whatever a caller passes.
 */
export class FleetStore extends DurableObject<Env> {
  private readonly db: FleetDb;
  /** Bumped by every write here; read models built before a write are rebuilt. */
  private writes = 0;
  /** Tells this instance's read-model keys from those of an earlier instance (whose counter restarted). */
  private readonly instance = crypto.randomUUID();
  private readonly cache = new Map<string, CacheEntry>();
  /** Read models being rebuilt in the background, by name: one rebuild of each at a time. */
  private readonly rebuilding = new Map<string, Promise<void>>();
  private refreshing: Promise<void> | null = null;
  /** D1's rows the sites' read model was last built from, with the counters they reflect. */
  private siteListRows: SiteListRows | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = createFleetDb(ctx.storage);
    void ctx.blockConcurrencyWhile(() => migrateFleetDb(this.db));
  }

  /** Rows inserted, updated or deleted on this object's database since it started (SQLite's count). */
  private totalChanges(): number {
    return Number(this.ctx.storage.sql.exec("SELECT total_changes() AS n").one().n);
  }

  // -- ownership --------------------------------------------------------------------------------

  private claim(orgId: string): void {
    const owner = readMeta(this.db, META_ORG);
    if (owner === null) writeMeta(this.db, META_ORG, orgId);
    else if (owner !== orgId) throw new Error("This fleet store belongs to another organisation");
  }

  // -- writes -----------------------------------------------------------------------------------

  /** Stores one page (directory, points, rollups) in one transaction, then publishes its messages. */
  async storePage(orgId: string, page: FleetPage): Promise<StoredPage> {
    this.claim(orgId);
    const changesBefore = this.totalChanges();
    const stored = this.ctx.storage.transactionSync(() => {
      applyDirectory(this.db, page.directory);
      // The page carries its own D1 changes: the mirror stays current if nothing else moved D1 meanwhile.
      if (page.versions && this.mirroredVersion() === page.versions.before) {
        writeMeta(this.db, META_DIRECTORY_VERSION, String(page.versions.after));
      }
      // In chunks, so each statement's JSON stays far below SQLite's 2 MB value limit (large imports).
      const rolled = { hours: 0, days: 0 };
      for (let i = 0; i < page.points.length; i += POINTS_PER_STATEMENT) {
        const chunk = storePoints(this.db, page.points.slice(i, i + POINTS_PER_STATEMENT));
        rolled.hours += chunk.hours;
        rolled.days += chunk.days;
      }
      return rolled;
    });
    this.writes++;
    await this.scheduleRetention();
    const delivered = page.messages.length > 0 ? this.publishMany(page.messages) : 0;
    return {
      points: page.points.length,
      hoursRolledUp: stored.hours,
      daysRolledUp: stored.days,
      rowsWritten: this.totalChanges() - changesBefore,
      delivered,
    };
  }

  /**
   * Stores one day of one system's history (a backfill unit) in one transaction: idempotent, and
   * only the hours and day whose points are new are rolled up again.
   */
  async storeHistoryDay(orgId: string, day: HistoryDayInput): Promise<StoredHistoryDay> {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
    const changesBefore = this.totalChanges();
    const stored = this.ctx.storage.transactionSync(() => storeHistoryDay(this.db, day));
    const rowsWritten = this.totalChanges() - changesBefore;
    if (rowsWritten > 0) {
      this.writes++;
      // The day is accounted (again) with what history brought.
      if (day.dayOver) {
        this.ctx.storage.transactionSync(() => {
          queueDayOf(this.db, day.systemId, day.date);
          this.bringLossesForward(Date.now() + LOSSES_AFTER_HISTORY_MS);
        });
      }
      await this.scheduleRetention();
    }
    return {
      points: day.points.length,
      pointsStored: stored.pointsStored,
      hoursRolledUp: stored.hours,
      daysRolledUp: stored.days,
      rowsWritten,
    };
  }

  /** Per system (of the given ones the store knows), the plant-local days its history should be fetched for. */
  async historyGaps(
    orgId: string,
    systemIds: string[],
    options: GapOptions,
  ): Promise<{ systemId: string; timezone: string; dates: string[] }[]> {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
    const days = options.days ?? HISTORY_DAYS + 1;
    // A day more than asked for: the oldest local day starts up to 14 hours before its UTC date.
    const coverage = readHistoryCoverage(
      this.db,
      systemIds,
      options.now - (days + 1) * DAY_MS,
      options.slotMs ?? GAP_SLOT_MS,
    );
    return [...coverage].map(([systemId, system]) => ({
      systemId,
      timezone: system.timezone,
      dates: daysToBackfill(system, options),
    }));
  }

  /** Rows of the D1 tables this store replaced (the one-time move of worker/engines/legacy-fleet-move.ts). */
  async importLegacy(orgId: string, rows: LegacyRows): Promise<void> {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
    this.ctx.storage.transactionSync(() => importLegacyRows(this.db, rows));
    this.writes++;
    await this.scheduleRetention();
  }

  /** Brings the mirror of D1's metadata up to date now (it is otherwise refreshed on the next read). */
  async ensureDirectory(orgId: string): Promise<void> {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
  }

  /** Writes made with the storage API directly (tools, tests) call this so read models are rebuilt. */
  noteDirectWrite(): void {
    this.writes++;
  }

  // -- reads ------------------------------------------------------------------------------------

  /** Every system's dashboard entry as one JSON array, for the CSV export. */
  async metricsJson(orgId: string, now: number): Promise<string> {
    return wholeMetricsJson(await this.metricsSnapshot(orgId, now));
  }

  /**
   * One page of the dashboard metrics answer for a caller that may hold it already: its key, and
   * the gzipped JSON only when the caller's key is not the current one. Each page is compressed
   * once per snapshot (1,000 entries, ~750 KB of JSON, ~50 KB gzipped), crosses to the isolate,
   * is held there and reaches the client at that size. A page past the last is an empty list.
   */
  async metricsAnswer(
    orgId: string,
    now: number,
    page: number,
    knownKey: string | null,
  ): Promise<MetricsAnswer> {
    const { value: snapshot, key: snapshotKey } = await this.cachedEntry(orgId, "metrics", now, () =>
      this.buildMetrics(now),
    );
    const key = `${snapshotKey}|p${page}`;
    const found = { key, total: snapshot.metrics.length, pageCount: snapshot.pages.length };
    if (key === knownKey) return { ...found, gzip: null };
    const gzip = snapshot.gzippedPages?.[page - 1] ?? (await gzipText(snapshot.pages[page - 1] ?? "[]"));
    return { ...found, gzip };
  }

  /**
   * The fleet's totals, from the same read model as the metrics answer; its site counts join D1's
   * roster of sites (their active flag lives there).
   */
  async dashboardSummary(orgId: string, now: number, sites: SiteRoster): Promise<DashboardSummary> {
    const snapshot = await this.metricsSnapshot(orgId, now);
    return { ...snapshot.summary, sites: siteCounts(snapshot.liveSiteIds, sites) };
  }

  /** One page of the fleet's entries, from the same read model: only the page crosses to the isolate. */
  async systemsPage(orgId: string, now: number, query: SystemsPageQuery): Promise<SystemsPage> {
    return systemsPage((await this.metricsSnapshot(orgId, now)).systems, query);
  }

  async fallbackTotals(orgId: string, now: number) {
    return fallbackTotals(await this.metricsSnapshot(orgId, now));
  }

  async energyVsExpectedBySite(orgId: string, now: number) {
    return energyVsExpectedBySite((await this.metricsSnapshot(orgId, now)).metrics);
  }

  async analyticsRecords(orgId: string, now: number): Promise<AnalyticsRecord[]> {
    return (await this.metricsSnapshot(orgId, now)).metrics.map((m) => toRecord(m.metric));
  }

  /** One page of the fleet's analytics records, from the same read model: only the page crosses. */
  async analyticsPage(orgId: string, now: number, query: AnalyticsQuery): Promise<AnalyticsPage> {
    return analyticsPage((await this.metricsSnapshot(orgId, now)).systems, query);
  }

  // -- the site lists ------------------------------------------------------------------------------

  /** One page of the organisation's sites, searched, filtered and sorted here: only the page crosses. */
  async sitesPage(orgId: string, now: number, query: SiteListQuery): Promise<SitesPage<SiteListItem>> {
    return sitesPage(await this.sitesIndex(orgId, now), query);
  }

  async enhancedSitesPage(
    orgId: string,
    now: number,
    query: SiteListQuery,
  ): Promise<SitesPage<EnhancedSiteListItem>> {
    return enhancedSitesPage(await this.sitesIndex(orgId, now), query, now);
  }

  async siteCounts(orgId: string, now: number, filter: SiteFilter): Promise<SiteCountsAnswer> {
    return siteListCounts(await this.sitesIndex(orgId, now), filter);
  }

  async siteGroups(orgId: string, now: number, query: SiteGroupsQuery): Promise<SiteGroup[]> {
    return siteGroups(await this.sitesIndex(orgId, now), query, query.by);
  }

  async siteMap(orgId: string, now: number, filter: SiteFilter): Promise<SiteMap> {
    return siteMap(await this.sitesIndex(orgId, now), filter);
  }

  /**
   * The sites' read model: D1's sites, their systems, portfolios and open alerts (re-read only when
   * D1's counters for them moved), joined with the live values held here and the dashboard model's
   * expectations; rebuilt like the other read models.
   */
  private async sitesIndex(orgId: string, now: number): Promise<SitesIndex> {
    const { value } = await this.cachedEntry(
      orgId,
      "sites",
      now,
      async (versions) => {
        const held = this.siteListRows;
        const rows =
          held && held.org === versions.org && held.lists === versions.lists
            ? held
            : await readSiteListRows(createDb(this.env.DB), orgId);
        this.siteListRows = rows;
        const snapshot = await this.metricsSnapshot(orgId, now);
        const expected = new Map(
          snapshot.metrics.map(({ metric }) => [
            metric.systemId,
            { actualWh: metric.todayGenerationWh, expectedWh: metric.expectedTodayWh },
          ]),
        );
        const live = new Map(allLiveValues(this.db).map((values) => [values.systemId, values]));
        return buildSitesIndex(rows, live, expected, now);
      },
      true,
    );
    return value;
  }

  async systemAnalytics(
    orgId: string,
    systemOrSiteId: string,
    range: AnalyticsRange,
    now: number,
  ): Promise<AnalyticsRecord | null> {
    this.claim(orgId);
    return this.readWithDirectory(orgId, () =>
      buildSystemAnalytics(this.db, createDb(this.env.DB), systemOrSiteId, range, now),
    );
  }

  async fleetSeries(orgId: string, tz: string, now: number): Promise<FleetSeries> {
    const { value } = await this.cachedEntry(orgId, `series|${tz}`, now, () =>
      buildFleetSeries(this.db, createDb(this.env.DB), tz, now),
    );
    return value;
  }

  /** Mean power per UTC hour summed over the given systems (a site's), hours starting in [start, end). */
  async summedHourlyPower(orgId: string, systemIds: string[], startMs: number, endMs: number) {
    this.claim(orgId);
    return summedHourlyPower(this.db, systemIds, startMs, endMs);
  }

  /** What fault detection reads: the systems (all, or the listed ones) with their points in [from, to]. */
  async detectionInput(
    orgId: string,
    systemIds: string[] | null,
    fromMs: number,
    toMs: number,
  ): Promise<DetectionSystem[]> {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
    return readDetectionInput(this.db, systemIds, fromMs, toMs);
  }

  /** Each system's energy (Wh) summed over the plant-local dates of one month (YYYY-MM). */
  async monthlyEnergy(orgId: string, month: string): Promise<{ systemId: string; energyWh: number }[]> {
    this.claim(orgId);
    return energyBySystem(this.db, `${month}-01`, `${month}-31`).map((row) => ({
      systemId: row.system_id,
      energyWh: row.energy_wh,
    }));
  }

  /**
   * What a digest or report needs of each system over a period: energy over the plant-local dates
   * [fromDate, toDate] and the hours it produced among its location's daylight hours.
   */
  async periodProduction(
    orgId: string,
    fromDate: string,
    toDate: string,
    daylight: [string, number][],
  ): Promise<{ systemId: string; energyWh: number; producingHours: number }[]> {
    this.claim(orgId);
    const hours = new Map(producingHoursBySystem(this.db, daylight).map((r) => [r.system_id, r.hours]));
    const energy = new Map(energyBySystem(this.db, fromDate, toDate).map((r) => [r.system_id, r.energy_wh]));
    return [...new Set([...hours.keys(), ...energy.keys()])].map((systemId) => ({
      systemId,
      energyWh: energy.get(systemId) ?? 0,
      producingHours: hours.get(systemId) ?? 0,
    }));
  }

  async liveValues(orgId: string, systemIds: string[]): Promise<LiveValues[]> {
    this.claim(orgId);
    return liveValues(this.db, systemIds);
  }

  /** What the store holds: rows per table and the bytes of its SQLite database. */
  async storageStats(orgId: string) {
    this.claim(orgId);
    return {
      rows: tableRowCounts(this.db),
      losses: lossRowCounts(this.db),
      databaseBytes: this.ctx.storage.sql.databaseSize,
    };
  }

  private async metricsSnapshot(orgId: string, now: number): Promise<FleetMetricsSnapshot> {
    return (await this.cachedEntry(orgId, "metrics", now, () => this.buildMetrics(now))).value;
  }

  /**
   * The dashboard answer's pages are gzipped as soon as they are built, so a background rebuild
   * leaves nothing for the next caller; one page per turn, since a compression's steps run as
   * promise callbacks that no queued call can come between.
   */
  private async buildMetrics(now: number): Promise<FleetMetricsSnapshot> {
    const snapshot = await buildFleetMetrics(this.db, createDb(this.env.DB), now);
    const gzippedPages: Uint8Array[] = [];
    for (const page of snapshot.pages) {
      await yieldTurn();
      gzippedPages.push(await gzipText(page));
    }
    snapshot.gzippedPages = gzippedPages;
    return snapshot;
  }

  /**
   * A read model reused while nothing it read has changed: no write here, D1's metadata counter
   * for the organisation and the shared irradiance counter unchanged, and younger than the max
   * age. A large fleet's model that only missed writes is answered as it is while it is rebuilt
   * in the background (see BACKGROUND_REBUILD_FROM_SYSTEMS).
   */
  private async cachedEntry<T>(
    orgId: string,
    name: string,
    now: number,
    build: (versions: { org: number; irradiance: number; lists: number }) => Promise<T>,
    readsLists = false,
  ): Promise<{ value: T; key: string }> {
    this.claim(orgId);
    const versions = await this.directoryCurrent(orgId);
    // The site lists also read alerts and portfolios; the other models do not rebuild for those.
    const inputs = `${this.instance}|${this.writes}|${versions.org}|${versions.irradiance}${readsLists ? `|${versions.lists}` : ""}`;
    const entry = this.cache.get(name);
    const young = entry !== undefined && now >= entry.builtAt && now - entry.builtAt < READ_MODEL_MAX_AGE_MS;
    if (entry && young && entry.inputs === inputs) return { value: entry.value as T, key: entry.key };
    // The site lists show what members change in D1 (a site's name or label, a portfolio, an
    // alert resolved) at once, whatever the fleet's size: only new readings are answered late.
    const d1Moved = readsLists && entry !== undefined && d1Inputs(entry.inputs) !== d1Inputs(inputs);
    if (entry && young && !d1Moved && entry.systems >= BACKGROUND_REBUILD_FROM_SYSTEMS) {
      if (!this.rebuilding.has(name)) {
        // Started on a later turn of the event loop: the build's SQL is synchronous, and begun here
        // it would hold this very answer back until it finished.
        const rebuild = new Promise<void>((resolve) => setTimeout(resolve, 0))
          .then(() => this.build(name, inputs, now, () => build(versions)))
          .then(() => undefined)
          .catch((error) =>
            console.error(JSON.stringify({ msg: "read model rebuild failed", name, error: String(error) })),
          )
          .finally(() => this.rebuilding.delete(name));
        this.rebuilding.set(name, rebuild);
        this.ctx.waitUntil(rebuild);
      }
      return { value: entry.value as T, key: entry.key };
    }
    return this.build(name, inputs, now, () => build(versions));
  }

  private async build<T>(
    name: string,
    inputs: string,
    now: number,
    build: () => Promise<T>,
  ): Promise<{ value: T; key: string }> {
    const systems = countSystems(this.db);
    const value = await build();
    const key = `${inputs}|${now}`;
    this.cache.set(name, { inputs, key, builtAt: now, value, systems });
    return { value, key };
  }

  // -- the directory mirrored from D1 ------------------------------------------------------------

  private mirroredVersion(): number | null {
    const value = readMeta(this.db, META_DIRECTORY_VERSION);
    return value === null ? null : Number(value);
  }

  /**
   * A read from the mirror with D1's counter checked side by side rather than first (one D1 round
   * trip fewer for a read that goes to D1 itself): when the counter moved, the mirror is refreshed
   * and the read made again.
   */
  private async readWithDirectory<T>(orgId: string, read: () => Promise<T>): Promise<T> {
    const mirrored = this.mirroredVersion();
    const [versions, answer] = await Promise.all([readVersions(createDb(this.env.DB), orgId), read()]);
    if (versions.org === mirrored && !this.refreshing) return answer;
    await this.directoryCurrent(orgId);
    return read();
  }

  /** Re-reads D1's metadata when D1's counter moved past what the store mirrors; answers the counters. */
  private async directoryCurrent(orgId: string) {
    const d1 = createDb(this.env.DB);
    const versions = await readVersions(d1, orgId);
    if (versions.org !== this.mirroredVersion()) {
      this.refreshing ??= this.refreshDirectory(orgId).finally(() => {
        this.refreshing = null;
      });
      await this.refreshing;
    }
    return versions;
  }

  private async refreshDirectory(orgId: string): Promise<void> {
    const { version, directory } = await readFullDirectory(createDb(this.env.DB), orgId);
    const mirrored = this.mirroredVersion();
    // A page stored while D1 was being read may already reflect a newer state than this read.
    if (mirrored !== null && mirrored > version) return;
    this.ctx.storage.transactionSync(() => {
      replaceDirectory(this.db, directory);
      writeMeta(this.db, META_DIRECTORY_VERSION, String(version));
    });
    this.writes++;
    // Systems may have come or gone: detection is scheduled or dropped accordingly.
    await this.scheduleAlarm();
  }

  // -- retention ----------------------------------------------------------------------------------

  /** Retention is due a day after the first page, then daily (or a second later while a backlog remains). */
  private async scheduleRetention(): Promise<void> {
    if (readMeta(this.db, META_RETENTION_DUE) === null) {
      writeMeta(this.db, META_RETENTION_DUE, String(Date.now() + DAY_MS));
    }
    await this.scheduleAlarm();
  }

  /**
   * When detection is next due: DETECTION_INTERVAL_MS after it was first needed or last ran, while
   * the directory holds systems; never for a store without systems (it is unscheduled then).
   */
  private detectionDue(now: number): number | null {
    if (!hasSystems(this.db)) {
      deleteMeta(this.db, META_DETECTION_DUE);
      return null;
    }
    const due = readMeta(this.db, META_DETECTION_DUE);
    if (due !== null) return Number(due);
    writeMeta(this.db, META_DETECTION_DUE, String(now + DETECTION_INTERVAL_MS));
    return now + DETECTION_INTERVAL_MS;
  }

  /**
   * When loss accounting is next due: hourly while the directory holds systems (an hour after the
   * first, or a minute after history stored a finished day).
   */
  private lossesDue(now: number): number | null {
    if (!hasSystems(this.db)) {
      deleteMeta(this.db, META_LOSSES_DUE);
      return null;
    }
    const due = readMeta(this.db, META_LOSSES_DUE);
    if (due !== null) return Number(due);
    writeMeta(this.db, META_LOSSES_DUE, String(now + LOSSES_INTERVAL_MS));
    return now + LOSSES_INTERVAL_MS;
  }

  /** Loss accounting no later than `at`. */
  private bringLossesForward(at: number): void {
    const due = readMeta(this.db, META_LOSSES_DUE);
    if (due === null || Number(due) > at) writeMeta(this.db, META_LOSSES_DUE, String(at));
  }

  /**
   * One pass of loss accounting at `now` within `maxMs` (worker/fleet/losses.ts): finished days
   * are queued at most hourly. A failure is logged, never thrown (the alarm's other work stands).
   */
  private async runLosses(now: number, maxMs: number, queue?: boolean): Promise<LossesPass | null> {
    const orgId = readMeta(this.db, META_ORG);
    if (orgId === null) return null;
    const queuedAt = Number(readMeta(this.db, META_LOSSES_QUEUED) ?? 0);
    const queueNow = queue ?? now - queuedAt >= LOSSES_INTERVAL_MS;
    try {
      const pass = await runLossesPass(
        {
          db: this.db,
          d1: createDb(this.env.DB),
          orgId,
          transaction: (work) => this.ctx.storage.transactionSync(work),
        },
        systemZones(this.db),
        now,
        { maxMs, queue: queueNow },
      );
      if (queueNow) writeMeta(this.db, META_LOSSES_QUEUED, String(now));
      if (pass.daysAccounted > 0) this.writes++;
      return pass;
    } catch (error) {
      console.error(JSON.stringify({ msg: "loss accounting failed", orgId, error: String(error) }));
      return null;
    }
  }

  /**
   * Accounts every due day now, pass after pass, queueing the finished days first: what the alarm
   * does over time, at once (tools, tests, the benchmark). Answers the passes' totals.
   */
  async settleLosses(orgId: string, now: number, maxMs = 600_000) {
    this.claim(orgId);
    await this.directoryCurrent(orgId);
    const started = Date.now();
    const total = { passes: 0, systems: 0, daysAccounted: 0, daysWaiting: 0, remaining: 0, ms: 0 };
    let queue = true;
    while (Date.now() - started < maxMs) {
      const pass = await this.runLosses(now, maxMs - (Date.now() - started), queue);
      queue = false;
      if (!pass) break;
      total.passes++;
      total.systems += pass.systems;
      total.daysAccounted += pass.daysAccounted;
      total.daysWaiting = pass.daysWaiting;
      total.remaining = pass.remaining;
      if (pass.remaining <= 0 || pass.daysAccounted === 0) break;
    }
    total.ms = Date.now() - started;
    return total;
  }

  /** What the listed systems' own days taught the expected-power model (calibration, inferred AC limit). */
  async learnedModels(orgId: string, systemIds: string[]): Promise<(LearnedModel & { systemId: string })[]> {
    this.claim(orgId);
    return [...learnedModels(this.db, systemIds)].map(([systemId, model]) => ({ systemId, ...model }));
  }

  /** The listed systems' (null: every system's) loss accounts from `from` to `to` (their own plant-local dates), per site and date. */
  async lossesByDate(orgId: string, systemIds: string[] | null, from: string, to: string) {
    this.claim(orgId);
    return lossesBySiteAndDate(this.db, systemIds, from, to);
  }

  /**
   * Every site's losses over its last `days` finished plant-local days at `now`, per price period
   * (`cuts`: the dates a price changes on), with the site's name; kept while no account changed.
   */
  async lossesBySite(orgId: string, now: number, days: number, cuts: string[]) {
    const { value } = await this.cachedEntry(
      orgId,
      `losses-sites|${days}|${cuts.join(",")}`,
      now,
      async () => {
        const windows = zoneWindows(systemZones(this.db), now, days);
        return lossesBySiteAndPeriod(this.db, windows, cuts);
      },
    );
    return value as (LossTotalsRow & {
      site_id: string;
      site_name: string | null;
      period: number;
      first_date: string;
    })[];
  }

  /**
   * The one alarm serves retention, detection and socket expiry: it is set for whichever comes
   * first, the next retention run, the next detection run or the earliest token expiry among the
   * open sockets. Every due time but the sockets' is kept in `meta`, so this can always recompute it.
   */
  private async scheduleAlarm(): Promise<void> {
    const now = Date.now();
    const retention = readMeta(this.db, META_RETENTION_DUE);
    const detection = this.detectionDue(now);
    const losses = this.lossesDue(now);
    const expiries = this.ctx
      .getWebSockets()
      .map((ws) => (ws.deserializeAttachment() as Partial<SocketAttachment> | null)?.tokenExpiresAt)
      .filter((at): at is number => typeof at === "number" && at > now);
    const next = Math.min(
      retention === null ? Number.POSITIVE_INFINITY : Number(retention),
      detection ?? Number.POSITIVE_INFINITY,
      losses ?? Number.POSITIVE_INFINITY,
      ...expiries,
    );
    const current = await this.ctx.storage.getAlarm();
    if (!Number.isFinite(next)) {
      // Nothing is due (no systems, no sockets, no retention yet): the store sleeps.
      if (current !== null) await this.ctx.storage.deleteAlarm();
      return;
    }
    if (current !== next) await this.ctx.storage.setAlarm(next);
  }

  /**
   * Closes sockets whose token has expired (without waiting for them to speak), runs one bounded
   * retention pass when it is due (a pass that stops at its budget continues a second later, a
   * finished one comes back the next day), and runs fault detection over every system when it is
   * due.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    openSockets(this.ctx.getWebSockets(), now);
    const retentionDue = readMeta(this.db, META_RETENTION_DUE);
    if (retentionDue !== null && Number(retentionDue) <= now) {
      const stored = readMeta(this.db, META_RETENTION_CURSOR);
      const run = this.runRetention(now, stored ? (JSON.parse(stored) as RetentionRun["cursor"]) : null);
      writeMeta(this.db, META_RETENTION_DUE, String(now + (run.cursor ? RETENTION_CONTINUE_MS : DAY_MS)));
    }
    const detectionDue = readMeta(this.db, META_DETECTION_DUE);
    if (detectionDue !== null && Number(detectionDue) <= now) {
      // The next run is set first: a failed run is not retried before its turn.
      writeMeta(this.db, META_DETECTION_DUE, String(now + DETECTION_INTERVAL_MS));
      await this.runDetection(now);
    }
    const lossesDue = readMeta(this.db, META_LOSSES_DUE);
    if (lossesDue !== null && Number(lossesDue) <= now) {
      // The next run is set first: a failed run is not retried before its turn.
      writeMeta(this.db, META_LOSSES_DUE, String(now + LOSSES_INTERVAL_MS));
      const pass = await this.runLosses(now, LOSSES_PASS_MS);
      if (pass && pass.remaining > 0) writeMeta(this.db, META_LOSSES_DUE, String(now + LOSSES_CONTINUE_MS));
    }
    await this.ctx.storage.deleteAlarm();
    await this.scheduleAlarm();
  }

  /**
   * Fault detection over every system of this store's organisation at `now`: the same evaluation
   * as after a stored page (worker/engines/detection.ts), reading its input here rather than
   * over RPC. D1 is asked for the organisation's rules, open alerts and irradiance only; a
   * failure is logged, never thrown (the alarm's other work stands).
   */
  private async runDetection(now: number): Promise<DetectionRun | null> {
    const orgId = readMeta(this.db, META_ORG);
    if (orgId === null) return null;
    try {
      return await detectAlerts(
        {
          db: createDb(this.env.DB),
          env: this.env,
          fleet: {
            detectionInput: (systemIds, fromMs, toMs) => this.detectionInput(orgId, systemIds, fromMs, toMs),
            learnedModels: async (systemIds) => this.learnedModels(orgId, systemIds),
            publish: async (messages) => this.publishMany(messages),
          },
        },
        orgId,
        { now },
      );
    } catch (error) {
      console.error(JSON.stringify({ msg: "scheduled detection failed", orgId, error: String(error) }));
      return null;
    }
  }

  /** A retention run at `now` from a cursor; the cursor for the next run is stored. */
  runRetention(now: number, cursor: RetentionRun["cursor"]): RetentionRun {
    const run = this.ctx.storage.transactionSync(() => {
      const result = pruneReadings(
        this.db,
        { beforeMs: rawRetentionCutoffs(this.env, now), maxRows: RETENTION_ROWS_PER_RUN },
        cursor,
      );
      writeMeta(this.db, META_RETENTION_CURSOR, JSON.stringify(result.cursor));
      return result;
    });
    if (run.removed > 0) this.writes++;
    return run;
  }

  // -- live sockets -------------------------------------------------------------------------------

  /** Accepts an already-authenticated socket; the worker has checked the user and their org. */
  override async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-Sunfleet-User");
    const orgId = request.headers.get("X-Sunfleet-Org");
    const session = readSocketSession(request.headers);
    if (!userId || !orgId || !session) return new Response("Missing user", { status: 400 });
    this.claim(orgId);
    const refused = refuseBeyondSessionLimit(
      this.ctx.getWebSockets(sessionTag(session.sessionId)),
      Date.now(),
    );
    if (refused) return refused;
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [userId, sessionTag(session.sessionId)]);
    server.serializeAttachment({ userId, ...session } satisfies SocketAttachment);
    // The alarm closes the socket when its token expires, even if it never speaks again.
    await this.scheduleAlarm();
    server.send(
      JSON.stringify({
        type: "connected",
        data: { orgId, serverTime: new Date().toISOString() },
      } satisfies LiveMessage),
    );
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: { "Sec-WebSocket-Protocol": LIVE_SUBPROTOCOL },
    });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const now = Date.now();
    if (closeIfExpired(ws, now) || closeIfFlooding(ws, now)) return;
    if (message === "ping") {
      ws.send(
        JSON.stringify({
          type: "pong",
          data: { serverTime: new Date().toISOString() },
        } satisfies LiveMessage),
      );
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  /**
   * Sends messages to every socket of the organisation as one frame, serialised once; answers the
   * messages delivered.
   */
  private publishMany(messages: LiveMessage[]): number {
    if (messages.length === 0) return 0;
    // Sockets whose token has expired are closed on the way, so none outlives its sign-in.
    const sockets = openSockets(this.ctx.getWebSockets(), Date.now());
    const payload = JSON.stringify(frameOf(messages));
    let delivered = 0;
    for (const ws of sockets) {
      try {
        ws.send(payload);
        delivered += messages.length;
      } catch {
        // A socket closing mid-broadcast is not an error for the others.
      }
    }
    return delivered;
  }

  /** Publishes messages that come with no page (alert changes, fan-out benchmarks). */
  async publish(orgId: string, messages: LiveMessage[]): Promise<number> {
    this.claim(orgId);
    return this.publishMany(messages);
  }

  /** Closes a user's sockets, e.g. when they are removed from the organisation. */
  async disconnectUser(orgId: string, userId: string): Promise<number> {
    this.claim(orgId);
    const sockets = this.ctx.getWebSockets(userId);
    for (const ws of sockets) ws.close(LIVE_CLOSE_ACCESS_REVOKED, "Access revoked");
    return sockets.length;
  }

  /** Closes the sockets of ended sessions (logout, password change, sessions ended elsewhere). */
  async disconnectSessions(orgId: string, sessionIds: string[]): Promise<number> {
    this.claim(orgId);
    let closed = 0;
    for (const sessionId of sessionIds) {
      for (const ws of this.ctx.getWebSockets(sessionTag(sessionId))) {
        closeSessionSocket(ws, "Session ended");
        closed++;
      }
    }
    return closed;
  }

  async connectedUsers(orgId: string): Promise<string[]> {
    this.claim(orgId);
    return this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketAttachment).userId);
  }
}
