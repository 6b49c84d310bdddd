import type { AnalyticsRange, AnalyticsRecord } from "../../../schema/api/analytics";
import type { FleetSeries } from "../../../schema/api/fleet-series";
import type {
  SiteCountsAnswer,
  SiteFilter,
  SiteGroup,
  SiteGroupsQuery,
  SiteMap,
} from "../../../schema/api/site-lists";
import type { OrgVersions } from "../../data/fleet-directory";
import { readOpenAlerts, readSiteListRows, type SiteListRows } from "../../data/site-lists";
import type { Env } from "../../env";
import { createDb } from "../../lib/db";
import { gzipText, type JsonGzip, type JsonText, jsonText } from "../../lib/gzip";
import { yieldTurn } from "../../lib/yield-turn";
import type { FleetDb } from "../db";
import type { D1Versions, DirectoryMirror } from "../directory-mirror";
import type { MetricsAnswer } from "../types";
import { buildSystemAnalytics } from "./analytics";
import { buildFleetMetrics, type FleetMetricsSnapshot } from "./metrics";
import type { FleetParts } from "./parts";
import { ReferenceYields } from "./reference-yields";
import { finishFleetSeries } from "./series";
import { buildSitesIndex, type SitesIndex, siteCounts, siteGroups, siteMap, withOpenAlerts } from "./sites";

/** Answers of one kind (map, counts, groups) kept per sites index: the whole fleet's and a few filters'. */
const ANSWERS_PER_INDEX = 8;

/**
 * Answers drawn from a sites index, held per index (a new index drops them) and per query, the
 * oldest dropped past ANSWERS_PER_INDEX. Held as promises: readers that arrive while an answer is
 * drawn wait for the same one, and a failed one is dropped.
 */
class AnswersPerIndex<T> {
  private readonly held = new WeakMap<SitesIndex, Map<string, Promise<T>>>();

  get(index: SitesIndex, query: unknown, draw: () => Promise<T> | T): Promise<T> {
    let answers = this.held.get(index);
    if (!answers) {
      answers = new Map();
      this.held.set(index, answers);
    }
    const key = JSON.stringify(query);
    let answer = answers.get(key);
    if (!answer) {
      answer = Promise.resolve().then(draw);
      if (answers.size >= ANSWERS_PER_INDEX) answers.delete(answers.keys().next().value ?? "");
      answers.set(key, answer);
      const kept = answers;
      answer.catch(() => kept.delete(key));
    }
    return answer;
  }
}

/** A read model is reused while nothing it read changed, and for at most this long (stale flags, today's window). */
export const READ_MODEL_MAX_AGE_MS = 60_000;
/**
 * A reader's clock is read before its call reaches the store, so a model another reader had built
 * meanwhile can be a moment younger than the reader's instant: within this, it is the reader's
 * model (it was rebuilt before answering, 2 s at 20,000 systems). Further back is another instant.
 */
export const READER_CLOCK_BEHIND_MS = 10_000;
/**
 * From this many systems a read model is rebuilt in the background after a write, the last one
 * answering meanwhile: a 20,000-system fleet's dashboard takes ~400 ms to build and its fleet
 * series over a second, while its sync pages arrive every few seconds; the site lists took
 * 100-250 ms at 1,000-2,000 sites while an account was listed, before every answer. Smaller
 * fleets rebuild before answering, so they see every write at once.
 */
export const BACKGROUND_REBUILD_FROM_SYSTEMS = 500;
/**
 * How old a large fleet's read model may be and still be answered while it is rebuilt behind the
 * answer: past its max age it was rebuilt before answering, so the first visitor after a quiet
 * minute waited ~2 s for a 20,000-system fleet's site lists. The next read gets the rebuilt model.
 */
export const LARGE_FLEET_ANSWER_MAX_AGE_MS = 5 * 60_000;

/**
 * A large fleet's read model is rebuilt behind its answer no sooner than this many times its own
 * build time after the last build ended, so rebuilds take at most a fifth of the object's time
 * however fast pages arrive: a 20,000-system fleet's sync pages come every second or two, its
 * site lists take ~2 s to build, and rebuilt after every page they held the object (and every
 * read queued on it) most of the time.
 */
export const REBUILD_SPACING_FACTOR = 4;

/** Whether a large fleet's model may start a rebuild at `wallNow` (see REBUILD_SPACING_FACTOR). */
export const rebuildDue = (entry: Pick<CacheEntry, "buildMs" | "builtAtWallMs">, wallNow: number) =>
  wallNow - entry.builtAtWallMs >= REBUILD_SPACING_FACTOR * entry.buildMs;

/**
 * The part of a read model's inputs that what members change in D1 moves: the organisation's
 * counter as of its last move no sync page carried, and the portfolios' counter (the inputs are
 * instance|writes|org|irradiance|edited[|lists|alerts]). Sync pages' own changes (new plants and
 * their sites while an account is listed), irradiance and alerts are left out: a listing moves
 * the organisation's counter every page, a history backfill's weather moves irradiance for
 * hours, a vendor's alarm list and the detection move alerts all day.
 */
const editedInputs = (inputs: string): string => {
  const [, , , , edited, lists] = inputs.split("|");
  return `${edited}|${lists}`;
};
/** The alerts counter in a read model's inputs, and the inputs with another. */
const alertsInput = (inputs: string) => inputs.split("|")[6];
const withAlertsInput = (inputs: string, alerts: number) =>
  [...inputs.split("|").slice(0, 6), String(alerts)].join("|");

/** How a read model takes new alerts without a rebuild: its value with them, and the counter read. */
type AlertsRefresh<T> = (value: T) => Promise<{ value: T; alerts: number }>;

interface CacheEntry {
  /** What the value was built from. */
  inputs: string;
  /** Names this very value (its inputs and when it was built). */
  key: string;
  builtAt: number;
  value: unknown;
  /** Systems in the directory when it was built. */
  systems: number;
  /** Wall-clock time its build took, and when it ended (Date.now(), not the read's clock). */
  buildMs: number;
  builtAtWallMs: number;
}

/**
 * The store's read models (the dashboard's metrics snapshot, the site lists' index, the fleet
 * series per zone, the sites' losses), each built from the readings and live values held here
 * and D1's rows, kept while nothing it read changed, and rebuilt after writes: before answering
 * in a small fleet, in the background in a large one (the last model answering meanwhile).
 */
export class CachedReadModels {
  /** Bumped by every write to the store; read models built before a write are rebuilt. */
  private writes = 0;
  /** Tells this instance's read-model keys from those of an earlier instance (whose counter restarted). */
  private readonly instance = crypto.randomUUID();
  private readonly cache = new Map<string, CacheEntry>();
  /** Read models being built before answering, by name, with the inputs they are built from. */
  private readonly building = new Map<
    string,
    { inputs: string; result: Promise<{ value: unknown; key: string }> }
  >();
  /** Read models being rebuilt in the background, by name: one rebuild of each at a time. */
  private readonly rebuilding = new Map<string, Promise<void>>();
  /** D1's rows the sites' read model was last built from, with the counters they reflect. */
  private siteListRows: SiteListRows | null = null;
  /** Today's reference yield of the fleet's places, kept while the weather stands. */
  private readonly referenceYields = new ReferenceYields();
  /** Gzipped map answers by the sites index they were drawn from, and by filter. */
  private readonly mapAnswers = new AnswersPerIndex<JsonGzip<SiteMap>>();
  /** The site counts by sites index and filter: a pass over every site (~10 ms at 20,000) each. */
  private readonly countAnswers = new AnswersPerIndex<SiteCountsAnswer>();
  /** The site groups by sites index and query: a pass over every site each. */
  private readonly groupAnswers = new AnswersPerIndex<SiteGroup[]>();

  constructor(
    /** This store's database: one system's analytics are read here. */
    private readonly db: FleetDb,
    /** The organisation's systems' parts: this store's, and its shards' when it has any. */
    private readonly parts: FleetParts,
    /** The organisation's systems, in every store. */
    private readonly systemCount: () => number,
    private readonly env: Env,
    private readonly mirror: DirectoryMirror,
    /** Keeps a background rebuild alive after the answer (the object's `waitUntil`). */
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  /** Something was written here: every read model is rebuilt on its next read. */
  noteWrite(): void {
    this.writes++;
  }

  async metricsSnapshot(orgId: string, now: number, seen?: OrgVersions): Promise<FleetMetricsSnapshot> {
    return (await this.metricsEntry(orgId, now, seen)).value;
  }

  /** The metrics snapshot with the key that names it (for answers a caller may hold already). */
  metricsEntry(
    orgId: string,
    now: number,
    seen?: OrgVersions,
  ): Promise<{ value: FleetMetricsSnapshot; key: string }> {
    return this.cachedEntry(orgId, "metrics", now, seen, (versions) => this.buildMetrics(now, versions));
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
    seen?: OrgVersions,
  ): Promise<MetricsAnswer> {
    const { value: snapshot, key: snapshotKey } = await this.metricsEntry(orgId, now, seen);
    const key = `${snapshotKey}|p${page}`;
    const found = { key, total: snapshot.metrics.length, pageCount: snapshot.pages.length };
    if (key === knownKey) return { ...found, gzip: null };
    const gzip = snapshot.gzippedPages?.[page - 1] ?? (await gzipText(snapshot.pages[page - 1] ?? "[]"));
    return { ...found, gzip };
  }

  /**
   * The sites' read model: D1's sites, their systems, portfolios and open alerts (re-read only when
   * D1's counters for them moved), joined with the live values held here and the dashboard model's
   * expectations; rebuilt like the other read models.
   */
  async sitesIndex(orgId: string, now: number, seen?: OrgVersions): Promise<SitesIndex> {
    const { value } = await this.cachedEntry(
      orgId,
      "sites",
      now,
      seen,
      async (versions) => {
        const held = this.siteListRows;
        const rows =
          held &&
          held.org === versions.org &&
          held.lists === versions.lists &&
          held.alerts === versions.alerts
            ? held
            : await readSiteListRows(createDb(this.env.DB), orgId);
        this.siteListRows = rows;
        const snapshot = await this.metricsSnapshot(orgId, now, versions);
        const expected = new Map(
          snapshot.metrics.map(({ metric }) => [
            metric.systemId,
            { actualWh: metric.todayGenerationWh, expectedWh: metric.expectedTodayWh },
          ]),
        );
        const live = new Map((await this.parts.liveValues()).map((values) => [values.systemId, values]));
        // The live values' read and the sites' entries each take tens of ms at 2,000 systems.
        await yieldTurn();
        return buildSitesIndex(rows, live, expected, now);
      },
      {
        readsLists: true,
        // An alert raised or resolved (all day, by the vendors' alarm lists and the detection)
        // recounts the sites' open alerts in the model held: one query, at once, at any size.
        refreshAlerts: async (index) => {
          const { alerts, openAlerts } = await readOpenAlerts(createDb(this.env.DB), orgId);
          if (this.siteListRows) this.siteListRows = { ...this.siteListRows, alerts, openAlerts };
          return { value: withOpenAlerts(index, openAlerts), alerts };
        },
      },
    );
    return value;
  }

  /**
   * The sites' map as gzipped JSON, drawn and compressed once per sites index and filter: every
   * site's place and status is ~600 KB of JSON (~50 KB gzipped) at 20,000 sites, and each map
   * open drew, sent and compressed all of it again (18 ms alone, 445 ms p95 at ten readers).
   */
  async siteMapGzip(
    orgId: string,
    now: number,
    filter: SiteFilter,
    seen?: OrgVersions,
  ): Promise<JsonGzip<SiteMap>> {
    const index = await this.sitesIndex(orgId, now, seen);
    return this.mapAnswers.get(index, filter, () => gzipText(JSON.stringify(siteMap(index, filter))));
  }

  /** The sites' counts per status and facet for a filter, held per sites index and filter. */
  async siteCounts(
    orgId: string,
    now: number,
    filter: SiteFilter,
    seen?: OrgVersions,
  ): Promise<SiteCountsAnswer> {
    const index = await this.sitesIndex(orgId, now, seen);
    return this.countAnswers.get(index, filter, () => siteCounts(index, filter));
  }

  /** The matching sites grouped with each group's totals, held per sites index and query. */
  async siteGroups(
    orgId: string,
    now: number,
    query: SiteGroupsQuery,
    seen?: OrgVersions,
  ): Promise<SiteGroup[]> {
    const index = await this.sitesIndex(orgId, now, seen);
    return this.groupAnswers.get(index, query, () => siteGroups(index, query, query.by));
  }

  async fleetSeries(orgId: string, tz: string, now: number, seen?: OrgVersions): Promise<FleetSeries> {
    const { value } = await this.cachedEntry(orgId, `series|${tz}`, now, seen, async (versions) => {
      // Today's PR is the dashboard model's: the card shows it beside the series' median.
      const todayPr = (await this.metricsSnapshot(orgId, now, versions)).summary.totals.performanceRatio;
      return finishFleetSeries(await this.parts.seriesParts(tz, now), tz, now, todayPr);
    });
    return value;
  }

  /**
   * Every site's losses over its last `days` finished plant-local days at `now`, per price period
   * (`cuts`: the dates a price changes on), with the site's name; kept while no account changed.
   */
  async lossesBySite(orgId: string, now: number, days: number, cuts: string[], seen?: OrgVersions) {
    const { value } = await this.cachedEntry(orgId, `losses-sites|${days}|${cuts.join(",")}`, now, seen, () =>
      this.parts.siteLosses(now, days, cuts),
    );
    return value;
  }

  /**
   * One system's (or site's) analytics record over a range: read each time, with the mirror
   * checked beside it. Answered as JSON text: one string crosses to the worker, which sends it as
   * it is, where thousands of series points would be copied object by object and written again.
   */
  systemAnalytics(
    orgId: string,
    systemOrSiteId: string,
    range: AnalyticsRange,
    now: number,
    seen?: OrgVersions,
  ): Promise<JsonText<AnalyticsRecord> | null> {
    const d1 = createDb(this.env.DB);
    return this.mirror.readWith(
      orgId,
      async (versions) => {
        const irradiance = versions.then((v) => v.irradiance);
        // Handled here too: a failed D1 read rejects the read, not also the process.
        irradiance.catch(() => undefined);
        const record = await buildSystemAnalytics(this.db, systemOrSiteId, range, now, (windows) =>
          this.referenceYields.yieldsBeside(d1, windows, irradiance),
        );
        return record && jsonText(record);
      },
      seen,
    );
  }

  /**
   * The dashboard answer's pages are gzipped as soon as they are built, so a background rebuild
   * leaves nothing for the next caller; one page per turn, since a compression's steps run as
   * promise callbacks that no queued call can come between.
   */
  private async buildMetrics(now: number, versions: D1Versions): Promise<FleetMetricsSnapshot> {
    const d1 = createDb(this.env.DB);
    const snapshot = await buildFleetMetrics(await this.parts.metricParts(), now, (windows) =>
      this.referenceYields.yields(d1, windows, versions.irradiance),
    );
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
   * age. A large fleet's model that missed writes or aged is answered as it is while it is
   * rebuilt in the background (see BACKGROUND_REBUILD_FROM_SYSTEMS, LARGE_FLEET_ANSWER_MAX_AGE_MS).
   */
  private async cachedEntry<T>(
    orgId: string,
    name: string,
    now: number,
    /** D1's counters as the caller read them (see DirectoryMirror.current). */
    seen: OrgVersions | undefined,
    build: (versions: D1Versions) => Promise<T>,
    { readsLists = false, refreshAlerts }: { readsLists?: boolean; refreshAlerts?: AlertsRefresh<T> } = {},
  ): Promise<{ value: T; key: string }> {
    const versions = await this.mirror.current(orgId, seen);
    // The site lists also read alerts and portfolios; the other models do not rebuild for those.
    const inputs = `${this.instance}|${this.writes}|${versions.org}|${versions.irradiance}|${versions.edited}${readsLists ? `|${versions.lists}|${versions.alerts}` : ""}`;
    const entry = this.cache.get(name);
    const age =
      entry !== undefined && now >= entry.builtAt - READER_CLOCK_BEHIND_MS
        ? Math.max(0, now - entry.builtAt)
        : Number.POSITIVE_INFINITY;
    if (entry && refreshAlerts && alertsInput(entry.inputs) !== alertsInput(inputs)) {
      const refreshed = await refreshAlerts(entry.value as T);
      entry.value = refreshed.value;
      entry.inputs = withAlertsInput(entry.inputs, refreshed.alerts);
      entry.key = `${entry.inputs}|${now}`;
    }
    if (entry && age < READ_MODEL_MAX_AGE_MS && entry.inputs === inputs) {
      return { value: entry.value as T, key: entry.key };
    }
    // The site lists show what members change in D1 (a site's name or label, a system moved, a
    // portfolio) at once, whatever the fleet's size: new readings, weather and alerts come late.
    const d1Moved = readsLists && entry !== undefined && editedInputs(entry.inputs) !== editedInputs(inputs);
    // The fleet's size now, not when the model was built: a model built early in a large
    // account's listing would otherwise be rebuilt before answering until it first saw the fleet.
    const large =
      entry !== undefined &&
      (entry.systems >= BACKGROUND_REBUILD_FROM_SYSTEMS ||
        this.systemCount() >= BACKGROUND_REBUILD_FROM_SYSTEMS);
    if (entry && large && age < LARGE_FLEET_ANSWER_MAX_AGE_MS && !d1Moved) {
      if (!this.rebuilding.has(name) && rebuildDue(entry, Date.now())) {
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
        this.waitUntil(rebuild);
      }
      return { value: entry.value as T, key: entry.key };
    }
    // Readers that arrive while the same model is built from the same inputs share that build: a
    // dashboard's first screen asks for the summary, a page and the site counts at once, and each
    // built the same 20,000-system model for itself (four metrics builds at once on a cold store).
    const pending = this.building.get(name);
    if (pending?.inputs === inputs) return pending.result as Promise<{ value: T; key: string }>;
    const result = this.build(name, inputs, now, () => build(versions)).finally(() => {
      if (this.building.get(name)?.result === result) this.building.delete(name);
    });
    this.building.set(name, { inputs, result });
    return result;
  }

  private async build<T>(
    name: string,
    inputs: string,
    now: number,
    build: () => Promise<T>,
  ): Promise<{ value: T; key: string }> {
    const systems = this.systemCount();
    const started = Date.now();
    const value = await build();
    const key = `${inputs}|${now}`;
    const builtAtWallMs = Date.now();
    this.cache.set(name, {
      inputs,
      key,
      builtAt: now,
      value,
      systems,
      buildMs: builtAtWallMs - started,
      builtAtWallMs,
    });
    return { value, key };
  }
}
