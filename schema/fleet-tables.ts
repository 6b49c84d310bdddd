import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ProviderId } from "./api/providers";

/*
 * One organisation's fleet data, in that organisation's SQLite-backed Durable Object
 * (worker/fleet/store.ts). Rows are keyed by small integers (`sys`, `inv`) assigned inside the
 * object, never by the 36-byte ids D1 uses; times are whole seconds or hours since the epoch and
 * values whole watts and watt-hours, so SQLite stores each in 1-4 bytes.
 * The reading and rollup tables are WITHOUT ROWID (migration 0001): one system's range is a few
 * adjacent pages and the key is the table, with no second index.
 */

/** State as stored: 1 online, 2 offline, 3 alarm (the dashboard's numeric state). */
export type StoredState = 1 | 2 | 3;

/**
 * Each system of the organisation: its D1 id, the metadata the read models need (mirrored from
 * D1, which owns it) and the latest live values (owned here).
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

/** A system's 5-minute points at the vendor's data time; kept for the raw retention window. */
export const fleetSystemReadings = sqliteTable(
  "system_readings",
  {
    sys: integer("sys").notNull(),
    /** Epoch seconds. */
    t: integer("t").notNull(),
    powerW: integer("power_w"),
    energyTodayWh: integer("energy_today_wh"),
    state: integer("state").$type<StoredState>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sys, t.t] })],
);

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

/** Mean power per system and UTC hour (hours since the epoch); kept after the raw points go. */
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

/** Energy per system and plant-local day (YYYY-MM-DD in the system's zone: 23 or 25 h on DST days). */
export const fleetSystemDaily = sqliteTable(
  "system_daily",
  {
    sys: integer("sys").notNull(),
    date: text("date").notNull(),
    energyWh: integer("energy_wh").notNull(),
    peakPowerW: integer("peak_power_w"),
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
