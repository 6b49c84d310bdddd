import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ProviderId } from "./api/providers";

/*
 * One organisation's fleet data, in that organisation's SQLite-backed Durable Object
 * (worker/fleet/store.ts). Rows are keyed by small integers (`sys`, `inv`) assigned inside the
 * object, never by the 36-byte ids D1 uses; times are whole seconds or hours since the epoch and
 * values whole watts and watt-hours, so SQLite stores each in 1-4 bytes.
 * The reading and rollup tables are WITHOUT ROWID (migration 0001): one system's range is a few
 * adjacent pages and the key is the table, with no second index.
 *
 * Raw points live in one table per UTC day (`points_<day>`, days since the epoch), made by
 * worker/fleet/data/points.ts with the columns of `system_readings` below: a day past the
 * retention is dropped whole instead of deleted row by row. `system_readings` and
 * `inverter_readings` hold the points stored before that layout (migration 0005) until the
 * retention has removed them.
 */

/** State as stored: 1 online, 2 offline, 3 alarm (the dashboard's numeric state). */
export type StoredState = 1 | 2 | 3;

/**
 * Each system of the organisation: its D1 id and the metadata the read models need (mirrored from
 * D1, which owns it). Live values are read from the system's newest point; the columns below hold
 * them only for a system whose points are gone (kept when its last day is dropped) or were stored
 * before migration 0005, and count when newer than every point held.
 */
export const fleetSystems = sqliteTable(
  "systems",
  {
    // AUTOINCREMENT: a removed system's key is never given to another while its readings await removal.
    sys: integer("sys").primaryKey({ autoIncrement: true }),
    systemId: text("system_id").notNull(),
    provider: text("provider").$type<ProviderId>().notNull(),
    providerSystemId: text("provider_system_id").notNull(),
    name: text("name").notNull(),
    capacityW: real("capacity_w"),
    siteId: text("site_id"),
    siteName: text("site_name"),
    siteCapacityKw: real("site_capacity_kw"),
    address: text("address"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** The site's zone, else the system's own, else UTC: local days are counted in it. */
    timezone: text("timezone").notNull(),
    /** Where its irradiance is stored in D1 ("52.37,4.90"); null without coordinates. */
    locationKey: text("location_key"),
    state: integer("state").$type<StoredState>(),
    powerW: integer("power_w"),
    energyTodayWh: integer("energy_today_wh"),
    energyTotalWh: integer("energy_total_wh"),
    /** Vendor data time of the live values, epoch ms. */
    dataTime: integer("data_time"),
  },
  (t) => [
    uniqueIndex("systems_system_id_unique").on(t.systemId),
    // Serves one site's systems (analytics of a site, without scanning the fleet).
    index("systems_site_idx").on(t.siteId),
  ],
);

export const fleetInverters = sqliteTable(
  "inverters",
  {
    inv: integer("inv").primaryKey({ autoIncrement: true }),
    inverterId: text("inverter_id").notNull(),
    sys: integer("sys").notNull(),
    serial: text("serial"),
    state: integer("state").$type<StoredState>(),
    powerW: integer("power_w"),
    energyTodayWh: integer("energy_today_wh"),
    temperatureC: real("temperature_c"),
    dataTime: integer("data_time"),
  },
  (t) => [
    uniqueIndex("inverters_inverter_id_unique").on(t.inverterId),
    // Serves a system's inverters.
    index("inverters_sys_idx").on(t.sys),
  ],
);

/**
 * A system's 5-minute points at the vendor's data time, kept for the raw retention window: the
 * columns of every day's `points_<day>` table (and of the points stored before them).
 */
export const fleetSystemReadings = sqliteTable(
  "system_readings",
  {
    sys: integer("sys").notNull(),
    /** Epoch seconds. */
    t: integer("t").notNull(),
    powerW: integer("power_w"),
    energyTodayWh: integer("energy_today_wh"),
    state: integer("state").$type<StoredState>().notNull(),
    /** The vendor time's milliseconds past `t`, when it has any (the live values' data time). */
    ms: integer("ms"),
    /**
     * The system's inverters at this point, packed: a JSON array of
     * `[inv, powerW, energyTodayWh, temperatureDc, state, dt?]`, `dt` the inverter's own data time
     * in seconds from `t` when it differs. The newest point of a system carries every inverter's
     * latest entry (an inverter the page left out keeps its last one, at its own time), so it is
     * the inverters' live values too. Null without inverters.
     */
    inverters: text("inverters"),
  },
  (t) => [primaryKey({ columns: [t.sys, t.t] })],
);

/** Inverters' points as stored before migration 0005 (now packed in their system's point); read until the retention empties it. */
export const fleetInverterReadings = sqliteTable(
  "inverter_readings",
  {
    inv: integer("inv").notNull(),
    t: integer("t").notNull(),
    powerW: integer("power_w"),
    energyTodayWh: integer("energy_today_wh"),
    /** Tenths of a degree Celsius. */
    temperatureDc: integer("temperature_dc"),
    state: integer("state").$type<StoredState>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.inv, t.t] })],
);

/**
 * Mean power per system and UTC hour (hours since the epoch), written once the hour has closed (its
 * end has passed, or a later point came): a system's open hour is computed from its points when
 * read. Kept 13 months after the raw points go, then folded into the day.
 */
export const fleetSystemHourly = sqliteTable(
  "system_hourly",
  {
    sys: integer("sys").notNull(),
    hour: integer("hour").notNull(),
    avgPowerW: integer("avg_power_w"),
    samples: integer("samples").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sys, t.hour] })],
);

/**
 * Energy per system and plant-local day (YYYY-MM-DD in the system's zone: 23 or 25 h on DST days),
 * kept for the system's life. Hourly rollups older than 13 months are folded into their day
 * (worker/fleet/data/rollups.ts) and removed: the fold's columns are null until then.
 */
export const fleetSystemDaily = sqliteTable(
  "system_daily",
  {
    sys: integer("sys").notNull(),
    date: text("date").notNull(),
    energyWh: integer("energy_wh").notNull(),
    peakPowerW: integer("peak_power_w"),
    /** Hourly rollups folded into the day (by the local date of each hour's start). */
    foldedHours: integer("folded_hours"),
    /** Of those, the hours with a mean power above zero. */
    producingHours: integer("producing_hours"),
    /** The folded hours' mean power summed: the energy their power integrates to, Wh. */
    powerWh: integer("power_wh"),
  },
  (t) => [primaryKey({ columns: [t.sys, t.date] })],
);

/** The object's own settings: its organisation, the D1 change counter its directory mirrors, cursors. */
export const fleetMeta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Plant-local days whose past was read from the vendor's history (worker/sync/history-backfill.ts):
 * a day listed here is not asked for again by gap detection, even when the vendor had few points for it.
 */
export const fleetHistoryDays = sqliteTable(
  "history_days",
  {
    sys: integer("sys").notNull(),
    date: text("date").notNull(),
    /** Points the vendor answered for the day. */
    points: integer("points").notNull(),
    /** Epoch ms of the fetch. */
    fetchedAt: integer("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sys, t.date] })],
);

/**
 * Each system's plant-local day split into loss categories (worker/domain/losses): energy in Wh,
 * expected = actual + downtime + partial outage + clipping + soiling + underperformance +
 * unmeasured. The healthy, soilable, peak and plateau figures are what the next days' learning
 * (calibration, soiling, the AC limit) reads back.
 */
export const fleetSystemLosses = sqliteTable(
  "system_losses",
  {
    sys: integer("sys").notNull(),
    date: text("date").notNull(),
    expectedWh: integer("expected_wh").notNull(),
    actualWh: integer("actual_wh").notNull(),
    /** Expected under a clear sky less expected: the weather's share, not a loss. */
    weatherWh: integer("weather_wh").notNull(),
    downtimeWh: integer("downtime_wh").notNull(),
    partialOutageWh: integer("partial_outage_wh").notNull(),
    clippingWh: integer("clipping_wh").notNull(),
    soilingWh: integer("soiling_wh").notNull(),
    /** Negative when the system did better than its calibration. */
    underperformanceWh: integer("underperformance_wh").notNull(),
    unmeasuredWh: integer("unmeasured_wh").notNull(),
    healthyReferenceWh: integer("healthy_reference_wh").notNull(),
    healthyActualWh: integer("healthy_actual_wh").notNull(),
    soilableWh: integer("soilable_wh").notNull(),
    peakPowerW: integer("peak_power_w").notNull(),
    plateauSteps: integer("plateau_steps").notNull(),
    precipitationMm: real("precipitation_mm").notNull(),
    /** The calibration and AC limit the day was accounted with. */
    calibration: real("calibration").notNull(),
    acLimitW: integer("ac_limit_w"),
    computedAt: integer("computed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sys, t.date] }),
    // Serves the fleet's days of a period (the ranking, the month's lost value).
    index("system_losses_date_idx").on(t.date),
  ],
);

/** Each inverter's part of its system's day: its share of expected, what it gave, what it lost while down. */
export const fleetInverterLosses = sqliteTable(
  "inverter_losses",
  {
    inv: integer("inv").notNull(),
    date: text("date").notNull(),
    expectedWh: integer("expected_wh").notNull(),
    actualWh: integer("actual_wh").notNull(),
    partialOutageWh: integer("partial_outage_wh").notNull(),
    downSteps: integer("down_steps").notNull(),
  },
  (t) => [primaryKey({ columns: [t.inv, t.date] })],
);

/** What each system's own days taught the model: its calibration and, when none was entered, its AC limit. */
export const fleetSystemModels = sqliteTable("system_models", {
  sys: integer("sys").primaryKey(),
  calibration: real("calibration").notNull(),
  /** Days the calibration rests on; 0 while it is the default. */
  calibrationDays: integer("calibration_days").notNull(),
  /** The AC limit the days showed (null: none seen); an entered one takes precedence. */
  inferredAcLimitW: integer("inferred_ac_limit_w"),
  updatedAt: integer("updated_at").notNull(),
});

/** System-days waiting to be accounted: finished days, days history filled, days whose model moved. */
export const fleetLossesDue = sqliteTable(
  "losses_due",
  {
    sys: integer("sys").notNull(),
    date: text("date").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sys, t.date] })],
);

/**
 * Which shard holds a system (worker/fleet/shards.ts). In the organisation's own object: the
 * systems its shards hold (a system not listed is held there); in a shard: the systems it holds.
 */
export const fleetShardSystems = sqliteTable(
  "shard_systems",
  {
    systemId: text("system_id").primaryKey(),
    shard: integer("shard").notNull(),
  },
  (t) => [index("shard_systems_shard_idx").on(t.shard)],
);

/** The organisation's shards, in its own object: each one's size as its last write answered it. */
export const fleetShards = sqliteTable("shards", {
  shard: integer("shard").primaryKey(),
  bytes: integer("bytes").notNull(),
});
