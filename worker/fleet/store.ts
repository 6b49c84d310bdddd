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
import type { LiveMessage } from "../../schema/live";
import type { OrgVersions } from "../data/fleet-directory";
import type { GapOptions } from "../domain/history/gaps";
import type { LearnedModel } from "../domain/solar/expectation";
import type { Env } from "../env";
import type { JsonGzip, JsonText } from "../lib/gzip";
import { lossesBySiteAndDate, lossRowCounts } from "./data/losses";
import { learnedModels } from "./data/models";
import { liveValues, tableRowCounts } from "./data/reads";
import type { RetentionRun } from "./data/retention";
import type { HistoryDayInput } from "./data/writes";
import { createFleetDb, type FleetDb, migrateFleetDb, SqlMeter } from "./db";
import { detectInStore } from "./detection";
import { DirectoryMirror } from "./directory-mirror";
import { claimOwner } from "./owner";
import { type AnalyticsPage, analyticsPage } from "./read-models/analytics-page";
import { CachedReadModels } from "./read-models/cached";
import { type SiteRoster, siteCounts } from "./read-models/fleet-summary";
import { energyVsExpectedBySite, fallbackTotals, wholeMetricsJson } from "./read-models/metrics";
import {
  type EnhancedSiteListItem,
  enhancedSitesPage,
  type SiteListItem,
  type SitesPage,
  sitesPage,
} from "./read-models/sites";
import { systemsPage } from "./read-models/systems-page";
import { Readings } from "./readings";
import { RealtimeHub } from "./realtime-hub";
import { Schedule } from "./schedule";
import { SizeWatch } from "./size-watch";
import type {
  DetectionSystem,
  FleetPage,
  LegacyRows,
  LiveValues,
  MetricsAnswer,
  StoredHistoryDay,
  StoredPage,
} from "./types";
import { FleetWrites } from "./writes";

/**
 * One instance per organisation, addressed by the organisation id D1 resolved for the caller
 * (worker/lib/fleet-store.ts). It holds the organisation's fleet data in its SQLite storage
 * — readings, rollups, live values, and a mirror of D1's system metadata — answers the read
 * models from it, and holds the organisation's hibernating sockets, so the object that stores a
 * page publishes its live update itself.
 *
 * Reads take D1's counters as the caller's request read them (`seen`, see DirectoryMirror.current)
 * when it has them, so the answer costs no D1 round trip of its own.
 *
 * This class is the RPC front: each method claims the object for the organisation it names
 * (refusing another's) and hands over to the module whose job it is: writes (./writes.ts), the
 * readings and rollups (./readings.ts), the read models with their caching and rebuilds
 * (./read-models/cached.ts), the directory mirrored from D1 (./directory-mirror.ts), the alarm's
 * schedule of retention, detection and loss accounting (./schedule.ts, ./detection.ts) and the
 * sockets (./realtime-hub.ts).
 */
export class FleetStore extends DurableObject<Env> {
  private readonly db: FleetDb;
  private readonly mirror: DirectoryMirror;
  private readonly readings: Readings;
  private readonly readModels: CachedReadModels;
  private readonly hub: RealtimeHub;
  private readonly schedule: Schedule;
  private readonly writes: FleetWrites;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const meter = new SqlMeter();
    const db = createFleetDb(ctx.storage, meter);
    this.db = db;
    void ctx.blockConcurrencyWhile(() => migrateFleetDb(db));
    const noteWrite = () => this.readModels.noteWrite();
    this.mirror = new DirectoryMirror(db, ctx.storage, env, async () => {
      noteWrite();
      // Systems may have come or gone: detection is scheduled or dropped accordingly.
      await this.schedule.setAlarm();
    });
    this.readings = new Readings(db);
    this.readModels = new CachedReadModels(db, env, this.mirror, (promise) => ctx.waitUntil(promise));
    this.hub = new RealtimeHub(ctx);
    const sizeWatch = new SizeWatch({ db, storage: ctx.storage, env });
    this.schedule = new Schedule({
      db,
      storage: ctx.storage,
      env,
      readings: this.readings,
      hub: this.hub,
      sizeWatch,
      noteWrite,
      meter,
      detect: (orgId, now) =>
        detectInStore(
          env,
          orgId,
          {
            detectionInput: (systemIds, fromMs, toMs) => this.detectionInput(orgId, systemIds, fromMs, toMs),
            learnedModels: async (systemIds) => this.learnedModels(orgId, systemIds),
            publish: (messages) => this.hub.publish(messages),
          },
          now,
        ),
    });
    this.writes = new FleetWrites({
      db,
      storage: ctx.storage,
      mirror: this.mirror,
      readings: this.readings,
      hub: this.hub,
      schedule: this.schedule,
      sizeWatch,
      noteWrite,
    });
  }

  private claim(orgId: string): void {
    claimOwner(this.db, orgId);
  }

  // -- writes -----------------------------------------------------------------------------------

  /** Stores one page (directory, points, rollups) in one transaction, then publishes its messages. */
  async storePage(orgId: string, page: FleetPage): Promise<StoredPage> {
    this.claim(orgId);
    return this.writes.storePage(page);
  }

  /** Stores one day of one system's history (a backfill unit); idempotent. */
  async storeHistoryDay(orgId: string, day: HistoryDayInput): Promise<StoredHistoryDay> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    return this.writes.storeHistoryDay(day);
  }

  /** Per system (of the given ones the store knows), the plant-local days its history should be fetched for. */
  async historyGaps(
    orgId: string,
    systemIds: string[],
    options: GapOptions,
  ): Promise<{ systemId: string; timezone: string; dates: string[] }[]> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    return this.readings.historyGaps(systemIds, options);
  }

  /** Rows of the D1 tables this store replaced (the one-time move of worker/engines/legacy-fleet-move.ts). */
  async importLegacy(orgId: string, rows: LegacyRows): Promise<void> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    await this.writes.importLegacy(rows);
  }

  /** Brings the mirror of D1's metadata up to date now (it is otherwise refreshed on the next read). */
  async ensureDirectory(orgId: string): Promise<void> {
    this.claim(orgId);
    await this.mirror.current(orgId);
  }

  /** Writes made with the storage API directly (tools, tests) call this so read models are rebuilt. */
  noteDirectWrite(): void {
    this.readModels.noteWrite();
  }

  // -- the dashboard's and analytics' read model ------------------------------------------------

  /** Every system's dashboard entry as one JSON array, for the CSV export. */
  async metricsJson(orgId: string, now: number, seen?: OrgVersions): Promise<string> {
    this.claim(orgId);
    return wholeMetricsJson(await this.readModels.metricsSnapshot(orgId, now, seen));
  }

  /** One page of the dashboard metrics answer, gzipped, unless the caller holds it already. */
  async metricsAnswer(
    orgId: string,
    now: number,
    page: number,
    knownKey: string | null,
    seen?: OrgVersions,
  ): Promise<MetricsAnswer> {
    this.claim(orgId);
    return this.readModels.metricsAnswer(orgId, now, page, knownKey, seen);
  }

  /**
   * The fleet's totals, from the same read model as the metrics answer; its site counts join D1's
   * roster of sites (their active flag lives there).
   */
  async dashboardSummary(
    orgId: string,
    now: number,
    sites: SiteRoster,
    seen?: OrgVersions,
  ): Promise<DashboardSummary> {
    this.claim(orgId);
    const snapshot = await this.readModels.metricsSnapshot(orgId, now, seen);
    return { ...snapshot.summary, sites: siteCounts(snapshot.liveSiteIds, sites) };
  }

  /** One page of the fleet's entries, from the same read model: only the page crosses to the isolate. */
  async systemsPage(
    orgId: string,
    now: number,
    query: SystemsPageQuery,
    seen?: OrgVersions,
  ): Promise<SystemsPage> {
    this.claim(orgId);
    return systemsPage((await this.readModels.metricsSnapshot(orgId, now, seen)).systems, query);
  }

  async fallbackTotals(orgId: string, now: number, seen?: OrgVersions) {
    this.claim(orgId);
    return fallbackTotals(await this.readModels.metricsSnapshot(orgId, now, seen));
  }

  async energyVsExpectedBySite(orgId: string, now: number, seen?: OrgVersions) {
    this.claim(orgId);
    return energyVsExpectedBySite((await this.readModels.metricsSnapshot(orgId, now, seen)).metrics);
  }

  /** One page of the fleet's analytics records, from the same read model: only the page crosses. */
  async analyticsPage(
    orgId: string,
    now: number,
    query: AnalyticsQuery,
    seen?: OrgVersions,
  ): Promise<AnalyticsPage> {
    this.claim(orgId);
    return analyticsPage((await this.readModels.metricsSnapshot(orgId, now, seen)).systems, query);
  }

  async systemAnalytics(
    orgId: string,
    systemOrSiteId: string,
    range: AnalyticsRange,
    now: number,
    seen?: OrgVersions,
  ): Promise<JsonText<AnalyticsRecord> | null> {
    this.claim(orgId);
    return this.readModels.systemAnalytics(orgId, systemOrSiteId, range, now, seen);
  }

  async fleetSeries(orgId: string, tz: string, now: number, seen?: OrgVersions): Promise<FleetSeries> {
    this.claim(orgId);
    return this.readModels.fleetSeries(orgId, tz, now, seen);
  }

  // -- the site lists ------------------------------------------------------------------------------

  /** One page of the organisation's sites, searched, filtered and sorted here: only the page crosses. */
  async sitesPage(
    orgId: string,
    now: number,
    query: SiteListQuery,
    seen?: OrgVersions,
  ): Promise<SitesPage<SiteListItem>> {
    this.claim(orgId);
    return sitesPage(await this.readModels.sitesIndex(orgId, now, seen), query);
  }

  async enhancedSitesPage(
    orgId: string,
    now: number,
    query: SiteListQuery,
    seen?: OrgVersions,
  ): Promise<SitesPage<EnhancedSiteListItem>> {
    this.claim(orgId);
    return enhancedSitesPage(await this.readModels.sitesIndex(orgId, now, seen), query, now);
  }

  async siteCounts(
    orgId: string,
    now: number,
    filter: SiteFilter,
    seen?: OrgVersions,
  ): Promise<SiteCountsAnswer> {
    this.claim(orgId);
    return this.readModels.siteCounts(orgId, now, filter, seen);
  }

  async siteGroups(
    orgId: string,
    now: number,
    query: SiteGroupsQuery,
    seen?: OrgVersions,
  ): Promise<SiteGroup[]> {
    this.claim(orgId);
    return this.readModels.siteGroups(orgId, now, query, seen);
  }

  /** The sites' map as gzipped JSON, held per sites index and filter. */
  async siteMap(
    orgId: string,
    now: number,
    filter: SiteFilter,
    seen?: OrgVersions,
  ): Promise<JsonGzip<SiteMap>> {
    this.claim(orgId);
    return this.readModels.siteMapGzip(orgId, now, filter, seen);
  }

  // -- readings and live values ---------------------------------------------------------------------

  /** Mean power per UTC hour summed over the given systems (a site's), hours starting in [start, end). */
  async summedHourlyPower(orgId: string, systemIds: string[], startMs: number, endMs: number) {
    this.claim(orgId);
    return this.readings.summedHourlyPower(systemIds, startMs, endMs);
  }

  /** What fault detection reads: the systems (all, or the listed ones) with their points in [from, to]. */
  async detectionInput(
    orgId: string,
    systemIds: string[] | null,
    fromMs: number,
    toMs: number,
  ): Promise<DetectionSystem[]> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    return this.readings.detectionInput(systemIds, fromMs, toMs);
  }

  /** Each system's energy (Wh) summed over the plant-local dates of one month (YYYY-MM). */
  async monthlyEnergy(orgId: string, month: string): Promise<{ systemId: string; energyWh: number }[]> {
    this.claim(orgId);
    return this.readings.monthlyEnergy(month);
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
    return this.readings.periodProduction(fromDate, toDate, daylight);
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

  // -- losses -----------------------------------------------------------------------------------

  /**
   * Accounts every due day now, pass after pass, queueing the finished days first (unless `queue`
   * is false): what the alarm does over time, at once (tools, tests, the benchmark). Answers the
   * passes' totals, with the rows they read and wrote.
   */
  async settleLosses(orgId: string, now: number, maxMs = 600_000, queue = true) {
    this.claim(orgId);
    await this.mirror.current(orgId);
    return this.schedule.settleLosses(now, maxMs, queue);
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
  async lossesBySite(orgId: string, now: number, days: number, cuts: string[], seen?: OrgVersions) {
    this.claim(orgId);
    return this.readModels.lossesBySite(orgId, now, days, cuts, seen);
  }

  // -- the schedule ---------------------------------------------------------------------------------

  override async alarm(): Promise<void> {
    await this.schedule.alarm();
  }

  /** A retention run at `now` from a cursor; the cursor for the next run is stored. */
  runRetention(now: number, cursor: RetentionRun["cursor"]): RetentionRun {
    return this.schedule.runRetention(now, cursor);
  }

  // -- live sockets -------------------------------------------------------------------------------

  /** Accepts an already-authenticated socket; the worker has checked the user and their org. */
  override async fetch(request: Request): Promise<Response> {
    return this.hub.accept(
      request,
      (orgId) => this.claim(orgId),
      () => this.schedule.setAlarm(),
    );
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    this.hub.message(ws, message);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.hub.close(ws, code, reason);
  }

  /** Publishes messages that come with no page (alert changes, fan-out benchmarks). */
  async publish(orgId: string, messages: LiveMessage[]): Promise<number> {
    this.claim(orgId);
    return this.hub.publish(messages);
  }

  /** Closes a user's sockets, e.g. when they are removed from the organisation. */
  async disconnectUser(orgId: string, userId: string): Promise<number> {
    this.claim(orgId);
    return this.hub.disconnectUser(userId);
  }

  /** Closes the sockets of ended sessions (logout, password change, sessions ended elsewhere). */
  async disconnectSessions(orgId: string, sessionIds: string[]): Promise<number> {
    this.claim(orgId);
    return this.hub.disconnectSessions(sessionIds);
  }

  async connectedUsers(orgId: string): Promise<string[]> {
    this.claim(orgId);
    return this.hub.connectedUsers();
  }
}
