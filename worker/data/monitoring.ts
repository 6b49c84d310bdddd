import type { ProviderId } from "../../schema/api/providers";
import type { SqlRow } from "../../schema/sql-row";
import type { InverterRow, MonitoringSystemRow, monitoringSystems } from "../../schema/tables";
import type { Db } from "../lib/db";
import type { KnownInverter, KnownSystem, NormalisedAlarm, NormalisedSystem } from "../providers/types";
import { VENDOR_ALARMS_ENABLED } from "./alert-rules";
import { notifyMembersOfVendorAlarms } from "./notifications";

/**
 * D1 writes of one sync page: the systems' and inverters' metadata and the vendor's alarms. Live
 * values and readings go to the organisation's fleet store, never here. Each statement reads its
 * rows from one JSON parameter through json_each (D1 caps bound parameters per statement at
 * 100), every write is an idempotent upsert keyed by the vendor's ids, and a row is rewritten only
 * when something in it changed, so an unchanged page writes no row and moves no change counter.
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

export function upsertSystemStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
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
        providerGroup: s.providerGroup ?? null,
        state: s.state,
      })),
    );
    return statement(
      db,
      `
      INSERT INTO monitoring_systems (id, org_id, connection_id, provider, provider_system_id, name, address,
        latitude, longitude, timezone, capacity_w, provider_group, state, created_at, updated_at)
      SELECT ${field("id")}, ?, ?, ?, ${field("providerSystemId")},
        ${field("name")}, ${field("address")}, ${field("latitude")}, ${field("longitude")}, ${field("timezone")},
        ${field("capacityW")}, ${field("providerGroup")}, ${field("state")}, ?, ?
      FROM json_each(?) AS j WHERE true
      ON CONFLICT (org_id, provider, provider_system_id) DO UPDATE SET
        connection_id = excluded.connection_id,
        name = excluded.name,
        address = coalesce(excluded.address, address),
        latitude = coalesce(excluded.latitude, latitude),
        longitude = coalesce(excluded.longitude, longitude),
        timezone = coalesce(excluded.timezone, timezone),
        capacity_w = coalesce(excluded.capacity_w, capacity_w),
        provider_group = coalesce(excluded.provider_group, provider_group),
        state = excluded.state,
        updated_at = excluded.updated_at
      WHERE connection_id IS NOT excluded.connection_id OR name IS NOT excluded.name
        OR address IS NOT coalesce(excluded.address, address) OR latitude IS NOT coalesce(excluded.latitude, latitude)
        OR longitude IS NOT coalesce(excluded.longitude, longitude)
        OR timezone IS NOT coalesce(excluded.timezone, timezone)
        OR capacity_w IS NOT coalesce(excluded.capacity_w, capacity_w)
        OR provider_group IS NOT coalesce(excluded.provider_group, provider_group) OR state IS NOT excluded.state`,
      scope.orgId,
      scope.connectionId,
      scope.provider,
      scope.now,
      scope.now,
      json,
    );
  });
}

function inverterStatements(db: Db, scope: SyncScope, systems: NormalisedSystem[]) {
  const inverters = systems.flatMap((s) =>
    s.inverters.map((inv) => ({
      id: crypto.randomUUID(),
      providerSystemId: s.providerSystemId,
      providerInverterId: inv.providerInverterId,
      serial: inv.serial,
      model: inv.model,
      ratedPowerW: inv.ratedPowerW,
      state: inv.state,
    })),
  );
  return chunks(inverters).map((rows) =>
    statement(
      db,
      `
      INSERT INTO inverters (id, org_id, system_id, provider_inverter_id, serial, model, rated_power_w, state, updated_at)
      SELECT ${field("id")}, ?, s.id, ${field("providerInverterId")}, ${field("serial")}, ${field("model")},
        ${field("ratedPowerW")}, ${field("state")}, ?
      FROM json_each(?) AS j
      -- CROSS JOIN keeps the page's rows outermost: each is one index lookup, instead of the
      -- JSON being re-read once per system of the provider.
      CROSS JOIN monitoring_systems s ON s.org_id = ? AND s.provider = ?
        AND s.provider_system_id = ${field("providerSystemId")}
      WHERE true
      ON CONFLICT (system_id, provider_inverter_id) DO UPDATE SET
        serial = coalesce(excluded.serial, serial),
        model = coalesce(excluded.model, model),
        rated_power_w = coalesce(excluded.rated_power_w, rated_power_w),
        state = excluded.state,
        updated_at = excluded.updated_at
      WHERE serial IS NOT coalesce(excluded.serial, serial) OR model IS NOT coalesce(excluded.model, model)
        OR rated_power_w IS NOT coalesce(excluded.rated_power_w, rated_power_w) OR state IS NOT excluded.state`,
      scope.orgId,
      scope.now,
      JSON.stringify(rows),
      scope.orgId,
      scope.provider,
    ),
  );
}

function alarmStatements(db: Db, scope: SyncScope, alarms: NormalisedAlarm[] | null) {
  if (alarms === null) return [];
  const rows = alarms.map((a) => ({
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
  }));
  // With the organisation's vendor_alarm rule off, no new alarm is stored; those already stored
  // are still updated, so the vendor's end still closes them.
  const upserts = chunks(rows).map((chunk) =>
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
      WHERE ${VENDOR_ALARMS_ENABLED} OR EXISTS (SELECT 1 FROM alerts e WHERE e.org_id = ? AND e.provider = ?
        AND e.provider_alarm_id = ${field("providerAlarmId")})
      ON CONFLICT (org_id, provider, provider_alarm_id) DO UPDATE SET
        system_id = coalesce(excluded.system_id, system_id),
        message = excluded.message,
        severity = excluded.severity,
        resolved = CASE WHEN excluded.resolved THEN 1 ELSE resolved END,
        resolved_at = CASE WHEN excluded.resolved AND resolved = 0 THEN excluded.resolved_at ELSE resolved_at END
      -- An alarm the vendor reports again unchanged writes nothing (each cycle reports every active one).
      WHERE (excluded.system_id IS NOT NULL AND alerts.system_id IS NOT excluded.system_id)
        OR alerts.message IS NOT excluded.message OR alerts.severity IS NOT excluded.severity
        OR (excluded.resolved AND alerts.resolved = 0)`,
      scope.orgId,
      scope.provider,
      JSON.stringify(chunk),
      scope.orgId,
      scope.provider,
      scope.orgId,
      scope.orgId,
      scope.provider,
    ),
  );
  const reported = alarms.map((a) => a.providerAlarmId);
  // Members hear of the alarms this page opened and of critical ones the vendor ended, as of
  // Sunfleet's own alerts; before the history below, which tells what was announced already.
  const notifications = notifyMembersOfVendorAlarms(db, scope, {
    insertedIds: rows.map((r) => r.id),
    providerAlarmIds: reported,
  });
  // A vendor fault can outlast the vendor's query window (Solis looks 2 days back), so an alarm
  // missing from a page is not over: only the vendor's own end time closes it. The history
  // records the vendor's opening and end once each.
  const history = statement(
    db,
    `
    INSERT INTO alert_events (id, alert_id, org_id, kind, actor_id, rule, note, created_at)
    SELECT lower(hex(randomblob(16))), a.id, a.org_id, k.kind, NULL, 'vendor_alarm', NULL,
      CASE k.kind WHEN 'opened' THEN a.created_at ELSE a.resolved_at END
    FROM alerts a JOIN (SELECT 'opened' AS kind UNION ALL SELECT 'resolved') k
    WHERE a.org_id = ? AND a.provider = ? AND a.provider_alarm_id IN (SELECT value FROM json_each(?))
      AND (k.kind = 'opened' OR (a.resolved = 1 AND a.resolved_by IS NULL))
      AND NOT EXISTS (SELECT 1 FROM alert_events e WHERE e.alert_id = a.id AND e.kind = k.kind)`,
    scope.orgId,
    scope.provider,
    JSON.stringify(reported),
  );
  return [...upserts, ...notifications, history];
}

/** Marks the page's systems as listed by a read of the vendor's plant list at `listedAt`. */
function listedStatement(db: Db, scope: SyncScope, systems: NormalisedSystem[], listedAt: number) {
  return statement(
    db,
    `UPDATE monitoring_systems SET listed_at = ?
    WHERE org_id = ? AND provider = ? AND provider_system_id IN (SELECT value FROM json_each(?))`,
    listedAt,
    scope.orgId,
    scope.provider,
    JSON.stringify(systems.map((s) => s.providerSystemId)),
  );
}

/**
 * Every D1 write of one sync page, in dependency order (systems before their inverters and
 * alarms). With alarms, the last statement is their history: its change count says whether the
 * page opened or ended any. `listedAt` is set when the page comes from a read of the vendor's
 * plant list.
 */
export function pageMetadataStatements(
  db: Db,
  scope: SyncScope,
  systems: NormalisedSystem[],
  alarms: NormalisedAlarm[] | null,
  listedAt?: number,
) {
  return [
    ...upsertSystemStatements(db, scope, systems),
    ...(listedAt === undefined || systems.length === 0
      ? []
      : [listedStatement(db, scope, systems, listedAt)]),
    ...inverterStatements(db, scope, systems),
    ...alarmStatements(db, scope, alarms),
  ];
}

/**
 * The connection's plants as the vendor's lists gave them at or after `listedSince` (the last
 * full read), with their inverters, in the order they were first listed: a steady cycle reads their live values.
 * Plants the vendor stopped listing are left out.
 */
export async function connectionCatalogue(
  db: Db,
  orgId: string,
  connectionId: string,
  listedSince: number,
): Promise<KnownSystem[]> {
  const [systems, inverters] = await db.$client.batch([
    db.$client
      .prepare(
        `SELECT id, provider_system_id AS providerSystemId, name, address, latitude, longitude, timezone,
          capacity_w AS capacityW, provider_group AS providerGroup
        FROM monitoring_systems WHERE org_id = ? AND connection_id = ? AND listed_at >= ?
        ORDER BY rowid`,
      )
      .bind(orgId, connectionId, listedSince),
    db.$client
      .prepare(
        `SELECT i.system_id AS systemId, i.provider_inverter_id AS providerInverterId, i.serial, i.model,
          i.rated_power_w AS ratedPowerW
        FROM inverters i JOIN monitoring_systems s ON s.id = i.system_id
        WHERE s.org_id = ? AND s.connection_id = ? AND s.listed_at >= ?
        ORDER BY i.rowid`,
      )
      .bind(orgId, connectionId, listedSince),
  ]);
  const bySystem = new Map<string, KnownInverter[]>();
  // Columns are aliased to the drizzle names, so the rows are typed from the tables' selects.
  type CatalogueInverter = Pick<InverterRow, "systemId" | keyof KnownInverter>;
  type CatalogueSystem = Pick<MonitoringSystemRow, "id" | keyof Omit<KnownSystem, "inverters">>;
  for (const row of (inverters?.results ?? []) as CatalogueInverter[]) {
    const { systemId, ...inverter } = row;
    bySystem.set(systemId, [...(bySystem.get(systemId) ?? []), inverter]);
  }
  return ((systems?.results ?? []) as CatalogueSystem[]).map(
    ({ id, ...system }): KnownSystem => ({ ...system, inverters: bySystem.get(id) ?? [] }),
  );
}

/** Where a connection's plants are (those with coordinates): the scheduler slows down when all are dark. */
export const connectionPlantPlaces = (db: Db, connectionId: string) =>
  db.$client
    .prepare("SELECT latitude, longitude FROM monitoring_systems WHERE connection_id = ?")
    .bind(connectionId)
    .all<Pick<SqlRow<typeof monitoringSystems>, "latitude" | "longitude">>()
    .then((result) => result.results);
