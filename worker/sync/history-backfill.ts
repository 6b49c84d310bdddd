import type { ProviderConnectionRow } from "../../schema/tables";
import { findConnectionById } from "../data/connections";
import { listConnectionSystems } from "../data/history";
import { systemLocationKeys } from "../data/irradiance";
import { localDay } from "../domain/energy/local-day";
import { GAP_SLOT_MS, HISTORY_DAYS } from "../domain/history/gaps";
import { fetchWeatherHistory } from "../engines/irradiance";
import type { StoredHistoryDay } from "../fleet/types";
import { fleetStoreFor } from "../lib/fleet-store";
import { ProviderError } from "../providers/errors";
import { findApiAdapter } from "../providers/registry";
import { type OpenOptions, openSource, type Source } from "./source";
import type { SyncDeps } from "./types";

/**
 * History backfill: the past of a connection's plants read from the vendors' history endpoints,
 * one unit per plant and plant-local day, each unit committing its own day to the fleet store.
 * A plan lists the days gap detection finds missing (every day of the last 30 for a new
 * connection; the days an outage, a backoff or a pause left empty afterwards).
 */

/** One unit of backfill work: one plant, one plant-local day. */
export interface HistoryUnit {
  systemId: string;
  providerSystemId: string;
  /** Plant-local YYYY-MM-DD. */
  date: string;
  timezone: string;
}

export interface HistoryUnitResult extends StoredHistoryDay {
  systemId: string;
  date: string;
  providerCalls: number;
}

export interface HistoryProgress {
  daysDone: number;
  daysTotal: number;
  pointsStored: number;
  providerCalls: number;
}

export interface PlanOptions {
  /** Past local days looked at besides today (30 unless a test says otherwise). */
  days?: number;
  /** The connection's polling cadence: a daylight stretch this long without a point is a gap. */
  slotMs?: number;
}

/**
 * The connection opened for its history, or null when there is none to read: the connection is
 * gone, or its vendor has no history (Meteronline, SolaX's token API).
 */
async function openHistory(
  deps: SyncDeps,
  connectionId: string,
  options?: OpenOptions,
): Promise<Source | null> {
  const connection = await findConnectionById(deps.db, connectionId);
  if (!connection || !findApiAdapter(connection.provider)) return null;
  const source = await openSource(deps, connection, options);
  return historyReadable(source) ? source : null;
}

/** Plants asked of the fleet store per gap read: its answer (31 dates a plant at most) stays ~50 KB. */
export const PLAN_PLANTS_PER_STEP = 100;

/** One plant's part of a plan: the plant-local days it lacks, oldest first. */
export interface PlannedPlant {
  systemId: string;
  providerSystemId: string;
  timezone: string;
  dates: string[];
}

/** Whether the opened connection's vendor has history to read with these credentials. */
export const historyReadable = (source: Source): boolean =>
  source.adapter.historyCallsPerDay(source.credentials) > 0;

/**
 * The days these plants of the connection lack (within the last 30 and today), as the fleet
 * store's gap detection finds them; plants lacking nothing are left out. At most
 * PLAN_PLANTS_PER_STEP plants a call.
 */
export async function planPlants(
  deps: SyncDeps,
  orgId: string,
  systems: { id: string; providerSystemId: string }[],
  options: PlanOptions = {},
): Promise<PlannedPlant[]> {
  if (systems.length === 0) return [];
  const vendorIds = new Map(systems.map((s) => [s.id, s.providerSystemId]));
  const gaps = await fleetStoreFor(deps.env, orgId).historyGaps(
    orgId,
    systems.map((s) => s.id),
    {
      now: deps.now(),
      days: (options.days ?? HISTORY_DAYS) + 1,
      slotMs: options.slotMs ?? GAP_SLOT_MS,
    },
  );
  const planned = gaps
    .filter((gap) => gap.dates.length > 0)
    .map((gap) => ({
      systemId: gap.systemId,
      providerSystemId: vendorIds.get(gap.systemId) ?? "",
      timezone: gap.timezone,
      dates: gap.dates,
    }));
  await weatherWithHistory(deps, orgId, planned);
  return planned;
}

/** Places whose past weather one planning step fetches at most; the rest come with the hourly refresh. */
const WEATHER_PLACES_PER_STEP = 20;

/**
 * The weather service's past hours for the places of plants whose history is about to be read, so
 * their expected energy, PR and losses exist for the backfilled days (a failure is left to the
 * hourly refresh; the history goes on).
 */
async function weatherWithHistory(deps: SyncDeps, orgId: string, plants: PlannedPlant[]) {
  if (plants.length === 0) return;
  try {
    const keys = await systemLocationKeys(
      deps.db,
      orgId,
      plants.map((plant) => plant.systemId),
    );
    await fetchWeatherHistory({
      env: deps.env,
      now: deps.now(),
      locationKeys: keys.slice(0, WEATHER_PLACES_PER_STEP),
      fetch: deps.fetch,
    });
  } catch (error) {
    console.warn(JSON.stringify({ msg: "weather history failed", orgId, error: String(error) }));
  }
}

/**
 * The units a backfill of this connection needs now: per plant, the days of the last 30 (and
 * today) the store lacks, planned PLAN_PLANTS_PER_STEP plants at a time. Empty for a vendor
 * without history. A run plans step by step instead (worker/sync/history-run.ts).
 */
export async function planHistory(
  deps: SyncDeps,
  connectionId: string,
  options: PlanOptions = {},
): Promise<HistoryUnit[]> {
  const source = await openHistory(deps, connectionId);
  return source ? planConnection(deps, source.connection, options) : [];
}

async function planConnection(
  deps: SyncDeps,
  connection: ProviderConnectionRow,
  options: PlanOptions,
): Promise<HistoryUnit[]> {
  const systems = await listConnectionSystems(deps.db, connection.orgId, connection.id);
  const units: HistoryUnit[] = [];
  for (let i = 0; i < systems.length; i += PLAN_PLANTS_PER_STEP) {
    const plants = await planPlants(
      deps,
      connection.orgId,
      systems.slice(i, i + PLAN_PLANTS_PER_STEP),
      options,
    );
    for (const plant of plants) {
      for (const date of plant.dates) {
        units.push({
          systemId: plant.systemId,
          providerSystemId: plant.providerSystemId,
          date,
          timezone: plant.timezone,
        });
      }
    }
  }
  return units;
}

/** Reads one plant-day from the vendor and stores it in the fleet store. */
async function storeDay(deps: SyncDeps, source: Source, unit: HistoryUnit): Promise<HistoryUnitResult> {
  const callsBefore = source.http.calls;
  const day = await source.adapter.fetchHistory(source.ctx, source.credentials, {
    providerSystemId: unit.providerSystemId,
    date: unit.date,
    timezone: unit.timezone,
  });
  const providerCalls = source.http.calls - callsBefore;
  const orgId = source.connection.orgId;
  const stored = day
    ? await fleetStoreFor(deps.env, orgId).storeHistoryDay(orgId, {
        systemId: unit.systemId,
        date: unit.date,
        points: day.systemPoints,
        dailyEnergyWh: day.dailyEnergyWh,
        fetchedAt: deps.now(),
        dayOver: localDay(unit.date, unit.timezone).endMs <= deps.now(),
      })
    : { points: 0, pointsStored: 0, hoursRolledUp: 0, daysRolledUp: 0, rowsWritten: 0 };
  return { ...stored, systemId: unit.systemId, date: unit.date, providerCalls };
}

/**
 * ONE backfill unit: the connection's vendor is asked for one plant's day, which is stored. This
 * is what a queued "history" unit of a sync run executes; a failure throws the vendor's error.
 */
export async function backfillUnit(
  deps: SyncDeps,
  connectionId: string,
  unit: HistoryUnit,
): Promise<HistoryUnitResult> {
  const connection = await findConnectionById(deps.db, connectionId);
  if (!connection) throw new ProviderError("invalid_request", "The connection no longer exists");
  const source = await openSource(deps, connection);
  try {
    return await storeDay(deps, source, unit);
  } finally {
    await source.saveSession();
  }
}

/**
 * A whole backfill of one connection now, unit after unit over one opened connection (the plan
 * made at the start), reporting progress after each day. Used where no run machinery queues
 * the units (tests, tools).
 */
export async function backfillConnection(
  deps: SyncDeps,
  connectionId: string,
  options: PlanOptions & { onProgress?: (progress: HistoryProgress) => void } = {},
): Promise<HistoryProgress> {
  const progress: HistoryProgress = { daysDone: 0, daysTotal: 0, pointsStored: 0, providerCalls: 0 };
  // One source for every unit: a backfill made here is many units, so its calls share no unit's limit.
  const source = await openHistory(deps, connectionId, { unitLimit: false });
  if (!source) return progress;
  try {
    const units = await planConnection(deps, source.connection, options);
    progress.daysTotal = units.length;
    for (const unit of units) {
      const result = await storeDay(deps, source, unit);
      progress.daysDone++;
      progress.pointsStored += result.pointsStored;
      progress.providerCalls += result.providerCalls;
      options.onProgress?.({ ...progress });
    }
  } finally {
    await source.saveSession();
  }
  return progress;
}
