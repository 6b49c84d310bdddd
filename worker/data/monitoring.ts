import type { ProviderId } from "../../schema/api/providers";
import type { Db } from "../lib/db";
import type { NormalisedAlarm, NormalisedSystem } from "../providers/types";
import { SYSTEM_WITH_SITE, SYSTEM_ZONE } from "./system-place";

/**
 * Bulk writes of one sync. Each statement reads its rows from one JSON parameter through
 * json_each, so a sync of hundreds of systems is a handful of statements (D1 caps bound
 * parameters per statement at 100), and every write is an idempotent upsert keyed by the
 * vendor's ids: syncing twice, or two syncs at once, never duplicates a row.
 */
const CHUNK = 200;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export interface SyncScope {
  orgId: string;
  provider: ProviderId;
  connectionId: string | null;
  now: number;
}

/** A json_each row's field, read inside the SQL text (not a bound parameter). */
const field = (name: string) => `json_extract(j.value, '$.${name}')`;

/** D1 statement from SQL text with `?` placeholders; batched by the caller. */
const statement = (db: Db, text: string, ...params: unknown[]) => db.$client.prepare(text).bind(...params);

function systemStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  return chunks(systems).map((rows) => {
    const json = JSON.stringify(
      rows.map((s) => ({
        id: crypto.randomUUID(),
        providerSystemId: s.providerSystemId,
        name: s.name,
        address: s.address,
        latitude: s.latitude,
        longitude: s.longitude,
        timezone: s.timezone,
        capacityW: s.capacityW,
        state: s.state,
        powerW: s.powerW,
        energyTodayWh: s.energyTodayWh,
        energyTotalWh: s.energyTotalWh,
        dataTime: s.dataTime,
      })),
    );
    // Live values only move forward in vendor time: an older answer never overwrites a newer one.
    return statement(
      db,
      `
      INSERT INTO monitoring_systems (id, org_id, connection_id, provider, provider_system_id, name, address,
        latitude, longitude, timezone, capacity_w, state, power_w, energy_today_wh, energy_total_wh, data_time,
        created_at, updated_at)
      SELECT ${field("id")}, ?, ?, ?, ${field("providerSystemId")},
        ${field("name")}, ${field("address")}, ${field("latitude")}, ${field("longitude")}, ${field("timezone")},
        ${field("capacityW")}, ${field("state")}, ${field("powerW")}, ${field("energyTodayWh")},
        ${field("energyTotalWh")}, ${field("dataTime")}, ?, ?
      FROM json_each(?) AS j WHERE true
      ON CONFLICT (org_id, provider, provider_system_id) DO UPDATE SET
        connection_id = excluded.connection_id,
        name = excluded.name,
        address = coalesce(excluded.address, address),
        latitude = coalesce(excluded.latitude, latitude),
        longitude = coalesce(excluded.longitude, longitude),
        timezone = coalesce(excluded.timezone, timezone),
        capacity_w = coalesce(excluded.capacity_w, capacity_w),
        state = CASE WHEN excluded.data_time IS NULL OR data_time IS NULL OR excluded.data_time >= data_time
          THEN excluded.state ELSE state END,
        power_w = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time THEN excluded.power_w ELSE power_w END,
        energy_today_wh = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time
          THEN excluded.energy_today_wh ELSE energy_today_wh END,
        energy_total_wh = coalesce(excluded.energy_total_wh, energy_total_wh),
        data_time = max(coalesce(excluded.data_time, 0), coalesce(data_time, 0)),
        updated_at = excluded.updated_at`,
      scope.orgId,
      scope.connectionId,
      scope.provider,
      scope.now,
      scope.now,
      json,
    );
  });
}

export interface ReadingRow {
  providerSystemId: string;
  time: number;
  powerW: number | null;
  energyTodayWh: number | null;
  state: string;
}

/** Time-series points of the scope's systems; a point already stored for that time is kept. */
export function readingStatements(db: Db, scope: SyncScope, readings: ReadingRow[]) {
  return chunks(readings).map((rows) =>
    statement(
      db,
      `
      INSERT INTO system_readings (system_id, time, power_w, energy_today_wh, state)
      SELECT s.id, ${field("time")}, ${field("powerW")}, ${field("energyTodayWh")}, ${field("state")}
      FROM json_each(?) AS j
      JOIN monitoring_systems s ON s.org_id = ? AND s.provider = ?
        AND s.provider_system_id = ${field("providerSystemId")}
      WHERE true
      ON CONFLICT (system_id, time) DO NOTHING`,
      JSON.stringify(rows),
      scope.orgId,
      scope.provider,
    ),
  );
}

function systemReadingStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  const readings = systems.flatMap((s) =>
    s.dataTime === null
      ? []
      : [
          {
            providerSystemId: s.providerSystemId,
            time: s.dataTime,
            powerW: s.powerW,
            energyTodayWh: s.energyTodayWh,
            state: s.state,
          },
        ],
  );
  return readingStatements(db, scope, readings);
}

function flattenInverters(systems: NormalisedSystem[]) {
  return systems.flatMap((s) =>
    s.inverters.map((inv) => ({
      id: crypto.randomUUID(),
      providerSystemId: s.providerSystemId,
      providerInverterId: inv.providerInverterId,
      serial: inv.serial,
      model: inv.model,
      ratedPowerW: inv.ratedPowerW,
      state: inv.state,
      powerW: inv.powerW,
      energyTodayWh: inv.energyTodayWh,
      energyTotalWh: inv.energyTotalWh,
      temperatureC: inv.temperatureC,
      dataTime: inv.dataTime,
    })),
  );
}

function inverterStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  return chunks(flattenInverters(systems)).map((rows) =>
    statement(
      db,
      `
      INSERT INTO inverters (id, org_id, system_id, provider_inverter_id, serial, model, rated_power_w, state,
        power_w, energy_today_wh, energy_total_wh, temperature_c, data_time, updated_at)
      SELECT ${field("id")}, ?, s.id, ${field("providerInverterId")}, ${field("serial")}, ${field("model")},
        ${field("ratedPowerW")}, ${field("state")}, ${field("powerW")}, ${field("energyTodayWh")},
        ${field("energyTotalWh")}, ${field("temperatureC")}, ${field("dataTime")}, ?
      FROM json_each(?) AS j
      JOIN monitoring_systems s ON s.org_id = ? AND s.provider = ?
        AND s.provider_system_id = ${field("providerSystemId")}
      WHERE true
      ON CONFLICT (system_id, provider_inverter_id) DO UPDATE SET
        serial = coalesce(excluded.serial, serial),
        model = coalesce(excluded.model, model),
        rated_power_w = coalesce(excluded.rated_power_w, rated_power_w),
        state = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time THEN excluded.state ELSE state END,
        power_w = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time THEN excluded.power_w ELSE power_w END,
        energy_today_wh = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time
          THEN excluded.energy_today_wh ELSE energy_today_wh END,
        energy_total_wh = coalesce(excluded.energy_total_wh, energy_total_wh),
        temperature_c = CASE WHEN data_time IS NULL OR excluded.data_time >= data_time
          THEN excluded.temperature_c ELSE temperature_c END,
        data_time = max(coalesce(excluded.data_time, 0), coalesce(data_time, 0)),
        updated_at = excluded.updated_at`,
      scope.orgId,
      scope.now,
      JSON.stringify(rows),
      scope.orgId,
      scope.provider,
    ),
  );
}

function inverterReadingStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  const rows = flattenInverters(systems).filter((inv) => inv.dataTime !== null);
  return chunks(rows).map((part) =>
    statement(
      db,
      `
      INSERT INTO inverter_readings (inverter_id, time, power_w, energy_today_wh, temperature_c, state)
      SELECT i.id, ${field("dataTime")}, ${field("powerW")}, ${field("energyTodayWh")}, ${field("temperatureC")},
        ${field("state")}
      FROM json_each(?) AS j
      JOIN monitoring_systems s ON s.org_id = ? AND s.provider = ?
        AND s.provider_system_id = ${field("providerSystemId")}
      JOIN inverters i ON i.system_id = s.id AND i.provider_inverter_id = ${field("providerInverterId")}
      WHERE true
      ON CONFLICT (inverter_id, time) DO NOTHING`,
      JSON.stringify(part),
      scope.orgId,
      scope.provider,
    ),
  );
}

function alarmStatements(db: Db, scope: SyncScope, alarms: NormalisedAlarm[] | null) {
  if (alarms === null) return [];
  const upserts = chunks(
    alarms.map((a) => ({
      id: crypto.randomUUID(),
      providerAlarmId: a.providerAlarmId,
      providerSystemId: a.providerSystemId,
      deviceSerial: a.deviceSerial,
      code: a.code,
      title: a.title,
      message: a.message,
      severity: a.severity,
      startedAt: a.startedAt,
      endedAt: a.endedAt,
    })),
  ).map((rows) =>
    statement(
      db,
      `
      INSERT INTO alerts (id, org_id, system_id, provider, provider_alarm_id, device_serial, code, title, message,
        severity, created_at, resolved, resolved_at, resolved_by)
      SELECT ${field("id")}, ?, s.id, ?, ${field("providerAlarmId")},
        ${field("deviceSerial")}, ${field("code")}, ${field("title")}, ${field("message")}, ${field("severity")},
        ${field("startedAt")}, ${field("endedAt")} IS NOT NULL, ${field("endedAt")}, NULL
      FROM json_each(?) AS j
      LEFT JOIN monitoring_systems s ON s.org_id = ? AND s.provider = ?
        AND s.provider_system_id = ${field("providerSystemId")}
      WHERE true
      ON CONFLICT (org_id, provider, provider_alarm_id) DO UPDATE SET
        system_id = coalesce(excluded.system_id, system_id),
        message = excluded.message,
        severity = excluded.severity,
        resolved = CASE WHEN excluded.resolved THEN 1 ELSE resolved END,
        resolved_at = CASE WHEN excluded.resolved AND resolved = 0 THEN excluded.resolved_at ELSE resolved_at END`,
      scope.orgId,
      scope.provider,
      JSON.stringify(rows),
      scope.orgId,
      scope.provider,
    ),
  );
  // An open vendor alarm the vendor no longer reports has cleared at the vendor.
  const reported = JSON.stringify(alarms.map((a) => a.providerAlarmId));
  const clearGone = statement(
    db,
    `
    UPDATE alerts SET resolved = 1, resolved_at = ?
    WHERE org_id = ? AND provider = ? AND resolved = 0
      AND provider_alarm_id IS NOT NULL
      AND provider_alarm_id NOT IN (SELECT value FROM json_each(?))`,
    scope.now,
    scope.orgId,
    scope.provider,
    reported,
  );
  return [...upserts, clearGone];
}

export const upsertSystemStatements = systemStatements;

/**
 * Every write of one successful sync, in dependency order (systems before their readings and
 * inverters), for one D1 batch: it commits or fails as a whole, so a failing sync never leaves
 * half its data behind.
 */
export function snapshotStatements(
  db: Db,
  scope: SyncScope,
  systems: NormalisedSystem[],
  alarms: NormalisedAlarm[] | null,
) {
  return [
    ...systemStatements(db, scope, systems),
    ...systemReadingStatements(db, scope, systems),
    ...inverterStatements(db, scope, systems),
    ...inverterReadingStatements(db, scope, systems),
    ...alarmStatements(db, scope, alarms),
  ];
}

/** Our ids, sites and zones for a provider's systems in an organisation (live updates, rollups). */
export async function listSystemRefs(db: Db, orgId: string, provider: ProviderId) {
  const rows = await db.$client
    .prepare(
      `SELECT ms.id, ms.provider_system_id, ms.site_id, ${SYSTEM_ZONE} AS timezone
       FROM ${SYSTEM_WITH_SITE}
       WHERE ms.org_id = ? AND ms.provider = ?`,
    )
    .bind(orgId, provider)
    .all<{ id: string; provider_system_id: string; site_id: string | null; timezone: string }>();
  return rows.results.map((r) => ({
    id: r.id,
    providerSystemId: r.provider_system_id,
    siteId: r.site_id,
    timezone: r.timezone,
  }));
}
