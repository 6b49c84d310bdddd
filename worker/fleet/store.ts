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
import { countSystems } from "./data/directory";
import { lossesBySiteAndDate, lossRowCounts } from "./data/losses";
import { learnedModels } from "./data/models";
import { holdsSystem, liveValues, siteFirstSystem, tableRowCounts } from "./data/reads";
import type { RetentionRun } from "./data/retention";
import type { HistoryDayInput } from "./data/writes";
import { createFleetDb, type FleetDb, migrateFleetDb, SqlMeter } from "./db";
import { detectInStore } from "./detection";
import { DirectoryMirror } from "./directory-mirror";
import { claimOwner, ownerOf } from "./owner";
import { type AnalyticsPage, analyticsPage } from "./read-models/analytics-page";
import { CachedReadModels } from "./read-models/cached";
import { type SiteRoster, siteCounts } from "./read-models/fleet-summary";
import { energyVsExpectedBySite, fallbackTotals, wholeMetricsJson } from "./read-models/metrics";
import {
  type FleetParts,
  joinedParts,
  type MetricParts,
  type SiteLossRow,
  storeParts,
} from "./read-models/parts";
import type { SeriesParts } from "./read-models/series";
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
import {
  addHourlyPower,
  addSettled,
  addSiteDayLosses,
  addStorageStats,
  joinedMetricParts,
} from "./shard-answers";
import { Shards } from "./shards";
import { nearBound, SizeWatch } from "./size-watch";
import type {
  DetectionSystem,
  DirectoryEntry,
  FleetPage,
  LegacyRows,
  LiveValues,
  MetricsAnswer,
  StoredHistoryDay,
  StoredPage,
} from "./types";
import { FleetWrites } from "./writes";

/** Strings in code-unit order: SQLite's own (UTF-8 bytes) for every character below U+10000. */
const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** What a shard does for its organisation's object (FleetStore.shardCall). */
type ShardWork = ReturnType<FleetStore["shardWork"]>;

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
  private readonly shards: Shards;
  /** What the read models read of the systems held here (a shard answers its organisation's object with them). */
  private readonly parts: FleetParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const meter = new SqlMeter();
    const db = createFleetDb(ctx.storage, meter);
    this.db = db;
    void ctx.blockConcurrencyWhile(() => migrateFleetDb(db));
    const noteWrite = () => this.readModels.noteWrite();
    this.shards = new Shards(db, env, () => nearBound(db));
    this.mirror = new DirectoryMirror(
      db,
      ctx.storage,
      env,
      async () => {
        noteWrite();
        // Systems may have come or gone: detection is scheduled or dropped accordingly.
        await this.schedule.setAlarm();
      },
      (entries) => this.directoryKept(entries),
    );
    this.readings = new Readings(db);
    this.parts = storeParts(db);
    this.readModels = new CachedReadModels(
      db,
      joinedParts([this.parts, ...this.shardParts()]),
      () => countSystems(db) + this.shards.remoteSystemCount(),
      env,
      this.mirror,
      (promise) => ctx.waitUntil(promise),
    );
    this.hub = new RealtimeHub(ctx);
    const sizeWatch = new SizeWatch({ db, storage: ctx.storage, env, shard: () => this.shards.self() });
    this.schedule = new Schedule({
      db,
      storage: ctx.storage,
      env,
      readings: this.readings,
      hub: this.hub,
      sizeWatch,
      // A shard's own work (loss accounts, retention) changes what its organisation's models show.
      noteWrite: () => {
        noteWrite();
        const orgId = ownerOf(db);
        if (this.shards.self() !== 0 && orgId !== null)
          ctx.waitUntil(this.organisationStore(orgId).noteDirectWrite());
      },
      meter,
      // Over the systems held here: each shard runs its own.
      detect: (orgId, now) =>
        detectInStore(
          env,
          orgId,
          {
            detectionInput: async (systemIds, fromMs, toMs) => {
              await this.mirror.current(orgId);
              return this.readings.detectionInput(systemIds, fromMs, toMs);
            },
            learnedModels: async (systemIds) => this.localLearnedModels(systemIds),
            publish: (messages) => this.publishToOrganisation(orgId, messages),
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

  /**
   * Stores one page (directory, points, rollups) in one transaction per store that holds its
   * systems, then publishes its messages. This store's part (if any) is written first, before
   * any turn, so the systems it took count against its room when the next page is routed.
   */
  async storePage(orgId: string, page: FleetPage): Promise<StoredPage> {
    this.claim(orgId);
    const directory = this.shards.route(page.directory, (entry) => entry.systemId);
    const points = this.shards.route(page.points, (point) => point.systemId);
    const shards = new Set([...directory.remote.keys(), ...points.remote.keys()]);
    if (shards.size === 0) return this.writes.storePage(page);
    const noneHere = directory.local.length === 0 && points.local.length === 0;
    const local = noneHere
      ? null
      : this.writes.storePage({
          directory: directory.local,
          versions: page.versions,
          points: points.local,
          messages: [],
        });
    const stored = await Promise.all([
      ...(local ? [local] : []),
      ...[...shards].map(async (shard) => {
        const part = {
          directory: directory.remote.get(shard) ?? [],
          versions: page.versions,
          points: points.remote.get(shard) ?? [],
          messages: [],
        };
        const answer = await this.onShard(orgId, shard, "storePage", [part]);
        this.shards.noteSize(shard, answer.databaseBytes);
        return answer;
      }),
    ]);
    const total: StoredPage = { points: 0, hoursRolledUp: 0, daysRolledUp: 0, rowsWritten: 0, delivered: 0 };
    for (const part of stored) {
      total.points += part.points;
      total.hoursRolledUp += part.hoursRolledUp;
      total.daysRolledUp += part.daysRolledUp;
      total.rowsWritten += part.rowsWritten;
    }
    // The shards' parts change what this object's models show, once they are written.
    this.readModels.noteWrite();
    total.delivered = await this.hub.publish(page.messages);
    return total;
  }

  /** Stores one day of one system's history (a backfill unit) where the system is held; idempotent. */
  async storeHistoryDay(orgId: string, day: HistoryDayInput): Promise<StoredHistoryDay> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    const shard = this.shards.shardsOf([day.systemId]).get(day.systemId);
    if (shard === undefined) return this.writes.storeHistoryDay(day);
    const stored = await this.onShard(orgId, shard, "storeHistoryDay", [day]);
    if (stored.rowsWritten > 0) this.readModels.noteWrite();
    return stored;
  }

  /** Per system (of the given ones the stores know), the plant-local days its history should be fetched for. */
  async historyGaps(
    orgId: string,
    systemIds: string[],
    options: GapOptions,
  ): Promise<{ systemId: string; timezone: string; dates: string[] }[]> {
    this.claim(orgId);
    await this.mirror.current(orgId);
    return this.spread(
      systemIds,
      (ids) => this.readings.historyGaps(ids, options),
      (shard, ids) => this.onShard(orgId, shard, "historyGaps", [ids, options]),
    );
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

  /** One system's (or a site's first system's) record, from the store that holds the system. */
  async systemAnalytics(
    orgId: string,
    systemOrSiteId: string,
    range: AnalyticsRange,
    now: number,
    seen?: OrgVersions,
  ): Promise<JsonText<AnalyticsRecord> | null> {
    this.claim(orgId);
    const holder = this.shards.shardsOf([systemOrSiteId]).get(systemOrSiteId);
    if (holder !== undefined) {
      return (await this.onShard(
        orgId,
        holder,
        "systemAnalytics",
        [systemOrSiteId, range, now],
        seen,
      )) as JsonText<AnalyticsRecord> | null;
    }
    // With shards, a site's systems may be spread over the stores: the one that stands for it is
    // the first by name of all of them, as in one store. (One store checks the mirror beside its
    // read instead, in readModels.)
    if (this.shards.remote().length > 0) {
      await this.mirror.current(orgId, seen);
      if (!holdsSystem(this.db, systemOrSiteId)) {
        const firsts = await this.everywhere(
          () => siteFirstSystem(this.db, systemOrSiteId),
          (shard) => this.onShard(orgId, shard, "siteFirstSystem", [systemOrSiteId], seen),
        );
        const first = firsts
          .filter((candidate) => candidate !== null)
          .sort((x, y) => byText(x.name, y.name) || byText(x.systemId, y.systemId))[0];
        if (first) return this.systemAnalytics(orgId, first.systemId, range, now, seen);
      }
    }
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
    const parts = await this.spread(
      systemIds,
      (ids) => this.readings.summedHourlyPower(ids, startMs, endMs),
      (shard, ids) => this.onShard(orgId, shard, "summedHourlyPower", [ids, startMs, endMs]),
    );
    return addHourlyPower(parts);
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
    if (systemIds === null) {
      return (
        await this.everywhere(
          () => this.readings.detectionInput(null, fromMs, toMs),
          (shard) => this.onShard(orgId, shard, "detectionInput", [null, fromMs, toMs]),
        )
      ).flat();
    }
    return this.spread(
      systemIds,
      (ids) => this.readings.detectionInput(ids, fromMs, toMs),
      (shard, ids) => this.onShard(orgId, shard, "detectionInput", [ids, fromMs, toMs]),
    );
  }

  /** Each system's energy (Wh) summed over the plant-local dates of one month (YYYY-MM). */
  async monthlyEnergy(orgId: string, month: string): Promise<{ systemId: string; energyWh: number }[]> {
    this.claim(orgId);
    const parts = await this.everywhere(
      () => this.readings.monthlyEnergy(month),
      (shard) => this.onShard(orgId, shard, "monthlyEnergy", [month]),
    );
    return parts.flat();
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
    const parts = await this.everywhere(
      () => this.readings.periodProduction(fromDate, toDate, daylight),
      (shard) => this.onShard(orgId, shard, "periodProduction", [fromDate, toDate, daylight]),
    );
    return parts.flat();
  }

  async liveValues(orgId: string, systemIds: string[]): Promise<LiveValues[]> {
    this.claim(orgId);
    return this.spread(
      systemIds,
      (ids) => liveValues(this.db, ids),
      (shard, ids) => this.onShard(orgId, shard, "liveValues", [ids]),
    );
  }

  /**
   * What the stores hold: rows per table and bytes of SQLite database, this store's and its
   * shards' added up, with each store's bytes (`stores`, this one first).
   */
  async storageStats(orgId: string) {
    this.claim(orgId);
    const stats = await this.everywhere(
      async () => this.localStats(),
      (shard) => this.onShard(orgId, shard, "storageStats", []),
    );
    return addStorageStats(stats);
  }

  private localStats() {
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
    const passes = await this.everywhere(
      () => this.schedule.settleLosses(now, maxMs, queue),
      (shard) => this.onShard(orgId, shard, "settleLosses", [now, maxMs, queue]),
    );
    return addSettled(passes);
  }

  /** What the listed systems' own days taught the expected-power model (calibration, inferred AC limit). */
  async learnedModels(orgId: string, systemIds: string[]): Promise<(LearnedModel & { systemId: string })[]> {
    this.claim(orgId);
    return this.spread(
      systemIds,
      (ids) => this.localLearnedModels(ids),
      (shard, ids) => this.onShard(orgId, shard, "learnedModels", [ids]),
    );
  }

  private localLearnedModels(systemIds: string[]): (LearnedModel & { systemId: string })[] {
    return [...learnedModels(this.db, systemIds)].map(([systemId, model]) => ({ systemId, ...model }));
  }

  /** The listed systems' (null: every system's) loss accounts from `from` to `to` (their own plant-local dates), per site and date. */
  async lossesByDate(orgId: string, systemIds: string[] | null, from: string, to: string) {
    this.claim(orgId);
    const parts =
      systemIds === null
        ? (
            await this.everywhere(
              () => lossesBySiteAndDate(this.db, null, from, to),
              (shard) => this.onShard(orgId, shard, "lossesByDate", [null, from, to]),
            )
          ).flat()
        : await this.spread(
            systemIds,
            (ids) => lossesBySiteAndDate(this.db, ids, from, to),
            (shard, ids) => this.onShard(orgId, shard, "lossesByDate", [ids, from, to]),
          );
    return addSiteDayLosses(parts);
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

  // -- shards ---------------------------------------------------------------------------------------

  /**
   * Work the organisation's object sends one of its shards (./shards.ts): run here over the
   * systems this shard holds, with the mirror current against D1's counters as the caller saw them.
   */
  async shardCall<K extends keyof ShardWork>(
    orgId: string,
    shard: number,
    work: K,
    args: Parameters<ShardWork[K]>,
    seen?: OrgVersions,
  ): Promise<Awaited<ReturnType<ShardWork[K]>>> {
    this.claim(orgId);
    this.shards.claim(shard);
    if (work !== "storePage" && work !== "applyDirectory") await this.mirror.current(orgId, seen);
    const run = this.shardWork(orgId, seen)[work] as (...input: unknown[]) => unknown;
    return (await run(...args)) as Awaited<ReturnType<ShardWork[K]>>;
  }

  private shardWork(orgId: string, seen: OrgVersions | undefined) {
    const held = (ids: string[]) => this.shards.hold(ids);
    return {
      storePage: async (page: FleetPage) => {
        held([...page.directory.map((e) => e.systemId), ...page.points.map((p) => p.systemId)]);
        const stored = await this.writes.storePage(page);
        return { ...stored, databaseBytes: this.ctx.storage.sql.databaseSize };
      },
      applyDirectory: async (entries: DirectoryEntry[]) => {
        held(entries.map((entry) => entry.systemId));
        this.ctx.storage.transactionSync(() => this.mirror.applyPage({ directory: entries }));
        this.readModels.noteWrite();
        await this.schedule.setAlarm();
      },
      metricParts: () => this.parts.metricParts(),
      allLiveValues: () => this.parts.liveValues(),
      seriesParts: (tz: string, now: number) => this.parts.seriesParts(tz, now),
      siteLosses: (now: number, days: number, cuts: string[]) => this.parts.siteLosses(now, days, cuts),
      storeHistoryDay: (day: HistoryDayInput) => this.writes.storeHistoryDay(day),
      historyGaps: async (ids: string[], options: GapOptions) => this.readings.historyGaps(ids, options),
      detectionInput: (ids: string[] | null, fromMs: number, toMs: number) =>
        this.readings.detectionInput(ids, fromMs, toMs),
      summedHourlyPower: async (ids: string[], startMs: number, endMs: number) =>
        this.readings.summedHourlyPower(ids, startMs, endMs),
      monthlyEnergy: async (month: string) => this.readings.monthlyEnergy(month),
      periodProduction: async (fromDate: string, toDate: string, daylight: [string, number][]) =>
        this.readings.periodProduction(fromDate, toDate, daylight),
      liveValues: async (ids: string[]) => liveValues(this.db, ids),
      learnedModels: async (ids: string[]) => this.localLearnedModels(ids),
      lossesByDate: async (ids: string[] | null, from: string, to: string) =>
        lossesBySiteAndDate(this.db, ids, from, to),
      settleLosses: (now: number, maxMs: number, queue: boolean) =>
        this.schedule.settleLosses(now, maxMs, queue),
      systemAnalytics: (id: string, range: AnalyticsRange, now: number) =>
        this.readModels.systemAnalytics(orgId, id, range, now, seen),
      storageStats: async () => this.localStats(),
      siteFirstSystem: async (siteId: string) => siteFirstSystem(this.db, siteId),
    };
  }

  private onShard<K extends keyof ShardWork>(
    orgId: string,
    shard: number,
    work: K,
    args: Parameters<ShardWork[K]>,
    seen?: OrgVersions,
  ): Promise<Awaited<ReturnType<ShardWork[K]>>> {
    // The stub's typed methods lose shardCall's type parameter: the answer is the work's own.
    const stub = this.shards.stub(orgId, shard) as unknown as {
      shardCall(...input: unknown[]): Promise<unknown>;
    };
    return stub.shardCall(orgId, shard, work, args, seen) as Promise<Awaited<ReturnType<ShardWork[K]>>>;
  }

  /** The read models' parts of each shard, asked when a model is built. */
  private shardParts(): FleetParts[] {
    const remote = (read: (orgId: string, shard: number) => Promise<unknown>) => async () => {
      const orgId = ownerOf(this.db);
      if (orgId === null) return [];
      return Promise.all(this.shards.remote().map((shard) => read(orgId, shard)));
    };
    const metricParts = remote((orgId, shard) => this.onShard(orgId, shard, "metricParts", []));
    const live = remote((orgId, shard) => this.onShard(orgId, shard, "allLiveValues", []));
    return [
      {
        metricParts: async () => joinedMetricParts((await metricParts()) as MetricParts[]),
        liveValues: async () => ((await live()) as Awaited<ReturnType<FleetParts["liveValues"]>>[]).flat(),
        seriesParts: async (tz, now) =>
          (
            (await remote((orgId, shard) =>
              this.onShard(orgId, shard, "seriesParts", [tz, now]),
            )()) as SeriesParts[][]
          ).flat(),
        siteLosses: async (now, days, cuts) =>
          (
            (await remote((orgId, shard) =>
              this.onShard(orgId, shard, "siteLosses", [now, days, cuts]),
            )()) as SiteLossRow[][]
          ).flat(),
      },
    ];
  }

  /**
   * The listed systems' answer: this store's for the systems held here, each shard's for its own,
   * in one list.
   */
  private async spread<T>(
    systemIds: string[],
    local: (ids: string[]) => T[] | Promise<T[]>,
    remote: (shard: number, ids: string[]) => Promise<T[]>,
  ): Promise<T[]> {
    const routed = this.shards.routeKnown(systemIds);
    const answers = await Promise.all([
      routed.local.length > 0 || routed.remote.size === 0 ? local(routed.local) : [],
      ...[...routed.remote].map(([shard, ids]) => remote(shard, ids)),
    ]);
    return answers.flat();
  }

  /** This store's answer and each shard's. */
  private everywhere<T>(local: () => T | Promise<T>, remote: (shard: number) => Promise<T>): Promise<T[]> {
    return Promise.all([local(), ...this.shards.remote().map((shard) => remote(shard))]);
  }

  /**
   * The entries of D1's directory kept here: in a shard its own; in the organisation's object
   * those it holds, the shards' sent to them (systems new to the organisation given their store).
   */
  private async directoryKept(entries: DirectoryEntry[]): Promise<DirectoryEntry[]> {
    if (this.shards.self() !== 0) return this.shards.own(entries);
    const orgId = ownerOf(this.db);
    this.shards.forgetAllBut(entries.map((entry) => entry.systemId));
    const routed = this.shards.route(entries, (entry) => entry.systemId);
    if (orgId !== null) {
      await Promise.all(
        [...routed.remote].map(([shard, part]) => this.onShard(orgId, shard, "applyDirectory", [part])),
      );
    }
    return routed.local;
  }

  /** The organisation's own object (this one, unless this is a shard). */
  private organisationStore(orgId: string): DurableObjectStub<FleetStore> {
    return this.env.FLEET_STORE.get(this.env.FLEET_STORE.idFromName(orgId));
  }

  /** The organisation's sockets are its own object's: a shard sends its messages there. */
  private publishToOrganisation(orgId: string, messages: LiveMessage[]): Promise<number> {
    if (this.shards.self() === 0) return this.hub.publish(messages);
    return this.organisationStore(orgId).publish(orgId, messages);
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
