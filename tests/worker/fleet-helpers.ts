import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import type { AvailableSystem, CreateSiteInput, EnhancedSite } from "../../schema/api/sites";
import { allPoints, unpackInverters } from "../../worker/fleet/data/points";
import { readFleetMetricSlices } from "../../worker/fleet/data/reads";
import { createFleetDb } from "../../worker/fleet/db";
import type { FleetStore } from "../../worker/fleet/store";
import { call, expectStatus, type TestUser } from "./helpers";

/**
 * Saves a sandbox account's credentials: the save runs a real sync through the sandbox (3 systems).
 * Unless `autoSites` is set, the organisation's automatic sites are switched off first, so the
 * plants stay available for the tests that build sites by hand.
 */
export async function connectProvider(
  owner: TestUser,
  provider: "solis" | "fronius",
  { autoSites = false }: { autoSites?: boolean } = {},
): Promise<AvailableSystem[]> {
  await expectStatus(
    await call("/api/organization/settings", {
      method: "PATCH",
      token: owner.token,
      body: { autoCreateSites: autoSites },
    }),
    200,
  );
  const credentials =
    provider === "solis"
      ? { keyId: sandboxAccounts.solis[0].keyId, keySecret: sandboxAccounts.solis[0].keySecret }
      : {
          accessKeyId: sandboxAccounts.fronius[0].accessKeyId,
          accessKeyValue: sandboxAccounts.fronius[0].accessKeyValue,
        };
  const saved = await expectStatus<{ sync: { status: string; sitesCount: number } }>(
    await call("/api/credentials", { method: "POST", token: owner.token, body: { provider, credentials } }),
    201,
  );
  expect(saved.sync).toMatchObject({ status: "success", sitesCount: 3 });
  return availableSystems(owner);
}

export const availableSystems = async (actor: TestUser) =>
  expectStatus<AvailableSystem[]>(await call("/api/available-systems", { token: actor.token }), 200);

/** The header of a Meteronline export: Dutch column names, power in kW and energy in kWh. */
export const METERONLINE_HEADER = "Datum;Installatie;Naam;Vermogen (kW);Opbrengst vandaag (kWh)";

/** POST /api/providers/meteronline/import's body for rows under METERONLINE_HEADER, in Amsterdam time. */
export const meteronlineImport = (rows: string[]) => ({
  csv: [METERONLINE_HEADER, ...rows].join("\n"),
  mapping: {
    timestamp: "Datum",
    system: "Installatie",
    systemName: "Naam",
    power: "Vermogen (kW)",
    energy: "Opbrengst vandaag (kWh)",
  },
  units: { power: "kW", energy: "kWh" },
  timezone: "Europe/Amsterdam",
});

/** The site forms' creation payload for a site in Amsterdam, numbers as strings. */
export const sitePayload = (overrides: Partial<CreateSiteInput> = {}): CreateSiteInput => ({
  name: "Keizersgracht Rooftop",
  address: "Keizersgracht 123, Amsterdam",
  location: "123, Keizersgracht, Amsterdam, Noord-Holland, Nederland",
  latitude: "52.3752",
  longitude: "4.8862",
  city: "Amsterdam",
  state: "Noord-Holland",
  country: "Nederland",
  provider: "solis",
  ...overrides,
});

export async function createSite(
  actor: TestUser,
  overrides: Partial<CreateSiteInput> = {},
): Promise<EnhancedSite> {
  return expectStatus<EnhancedSite>(
    await call("/api/sites", { method: "POST", token: actor.token, body: sitePayload(overrides) }),
    201,
  );
}

export async function attach(actor: TestUser, siteId: string, systemId: string) {
  return expectStatus<{ attached: boolean; site: EnhancedSite }>(
    await call(`/api/sites/${siteId}/systems`, { method: "POST", token: actor.token, body: { systemId } }),
    201,
  );
}

/** An organisation's fleet store (the Durable Object holding its readings, rollups and live values). */
export const storeOf = (orgId: string) => env.FLEET_STORE.get(env.FLEET_STORE.idFromName(orgId));

async function orgOfSystem(systemId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT org_id FROM monitoring_systems WHERE id = ?")
    .bind(systemId)
    .first<{ org_id: string }>();
  if (!row) throw new Error(`No system ${systemId} in D1`);
  return row.org_id;
}

/**
 * Runs SQL inside an organisation's fleet store once its directory mirrors D1, and answers the
 * rows; the store's read models are rebuilt after it.
 */
export async function storeSql<T = Record<string, SqlStorageValue>>(
  orgId: string,
  query: string,
  ...params: SqlStorageValue[]
): Promise<T[]> {
  const stub = storeOf(orgId);
  await stub.ensureDirectory(orgId);
  return runInDurableObject(stub, (instance: FleetStore, state) => {
    const rows = state.storage.sql.exec(query, ...params).toArray() as T[];
    instance.noteDirectWrite();
    return rows;
  });
}

/** Runs SQL in the store of the organisation a D1 system belongs to. */
export async function systemStoreSql<T = Record<string, SqlStorageValue>>(
  systemId: string,
  query: string,
  ...params: SqlStorageValue[]
): Promise<T[]> {
  return storeSql<T>(await orgOfSystem(systemId), query, ...params);
}

const storedState = (state: "online" | "offline" | "alarm") =>
  state === "online" ? 1 : state === "alarm" ? 3 : 2;

interface StoreLive {
  state: "online" | "offline" | "alarm";
  powerW: number | null;
  energyTodayWh: number | null;
  dataTime: number | null;
}

/** Sets a system's live values in its organisation's fleet store, to test what sites derive from them. */
export async function setSystemLive(systemId: string, values: StoreLive) {
  await env.DB.prepare("UPDATE monitoring_systems SET state = ? WHERE id = ?")
    .bind(values.state, systemId)
    .run();
  await setStoreLive(await orgOfSystem(systemId), systemId, values);
}

/**
 * Makes these the live values an organisation's fleet store holds for a system: kept on its row,
 * and its points from their time on (which would be newer) removed, so no point outranks them.
 */
export async function setStoreLive(orgId: string, systemId: string, values: StoreLive) {
  const stub = storeOf(orgId);
  await stub.ensureDirectory(orgId);
  await runInDurableObject(stub, (instance: FleetStore, state) => {
    const sql = state.storage.sql;
    const [system] = sql.exec("SELECT sys FROM systems WHERE system_id = ?", systemId).toArray();
    if (!system) throw new Error(`No system ${systemId} in the fleet store`);
    sql.exec(
      "UPDATE systems SET state = ?, power_w = ?, energy_today_wh = ?, data_time = ? WHERE sys = ?",
      storedState(values.state),
      values.powerW,
      values.energyTodayWh,
      values.dataTime,
      system.sys,
    );
    const tables = sql
      .exec(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND (name GLOB 'points_[0-9]*' OR name = 'system_readings')",
      )
      .toArray()
      .map((row) => String(row.name));
    for (const table of tables) {
      sql.exec(
        `DELETE FROM ${table} WHERE sys = ? AND t * 1000 + coalesce(ms, 0) >= ?`,
        system.sys,
        values.dataTime ?? Number.MIN_SAFE_INTEGER,
      );
    }
    instance.noteDirectWrite();
  });
}

/** Changes some of a system's live values in its organisation's fleet store (see setStoreLive). */
export async function patchStoreLive(orgId: string, systemId: string, patch: Partial<StoreLive>) {
  const [current] = await storeOf(orgId).liveValues(orgId, [systemId]);
  await setStoreLive(orgId, systemId, {
    state: current?.state ?? "offline",
    powerW: current?.powerW ?? null,
    energyTodayWh: current?.energyTodayWh ?? null,
    dataTime: current?.dataTime ?? null,
    ...patch,
  });
}

/** Hourly rollups of a system in its fleet store: [UTC hour start (ms), mean power W]. */
export async function seedHourlyRollups(systemId: string, hours: [number, number | null][]) {
  for (const [hourStart, powerW] of hours) {
    await systemStoreSql(
      systemId,
      "INSERT OR REPLACE INTO system_hourly (sys, hour, avg_power_w, samples) SELECT sys, ?, ?, 12 FROM systems WHERE system_id = ?",
      hourStart / 3_600_000,
      powerW,
      systemId,
    );
  }
}

/** Daily rollups of a system in its fleet store: [local date, energy Wh]. */
export async function seedDailyRollups(systemId: string, days: [string, number][]) {
  for (const [date, energyWh] of days) {
    await systemStoreSql(
      systemId,
      "INSERT OR REPLACE INTO system_daily (sys, date, energy_wh, peak_power_w) SELECT sys, ?, ?, NULL FROM systems WHERE system_id = ?",
      date,
      energyWh,
      systemId,
    );
  }
}

/**
 * Every point an organisation's fleet store holds (each day's table and the older layout's), in
 * (sys, t) order, each with the table it is in and its packed inverters unpacked (`t` the
 * inverter's own time).
 */
export async function storedPoints(orgId: string) {
  const stub = storeOf(orgId);
  await stub.ensureDirectory(orgId);
  return runInDurableObject(stub, (_instance: FleetStore, state) =>
    allPoints(createFleetDb(state.storage)).map(({ inverters, ...point }) => ({
      ...point,
      inverters: unpackInverters(point.t, inverters).map(({ entry, at }) => ({
        inv: entry[0],
        t: at,
        power_w: entry[1],
        energy_today_wh: entry[2],
        temperature_dc: entry[3],
        state: entry[4],
      })),
    })),
  );
}

/**
 * The live values an organisation's fleet store holds: each system's and each inverter's (from the
 * system's newest point, else kept on its row), systems by vendor id and inverters by serial.
 */
export async function storeLiveRows(orgId: string) {
  const stub = storeOf(orgId);
  await stub.ensureDirectory(orgId);
  const slices = await runInDurableObject(stub, (_instance: FleetStore, state) =>
    readFleetMetricSlices(createFleetDb(state.storage)),
  );
  return {
    systems: slices
      .flatMap((slice) => slice.systems)
      .map((s) => ({
        id: s.id,
        provider_system_id: s.provider_system_id,
        state: s.state,
        power_w: s.power_w,
        energy_today_wh: s.energy_today_wh,
        data_time: s.data_time,
      }))
      .sort((a, b) => (a.provider_system_id < b.provider_system_id ? -1 : 1)),
    inverters: slices
      .flatMap((slice) => slice.inverters)
      .sort((a, b) => ((a.serial ?? "") < (b.serial ?? "") ? -1 : 1)),
  };
}

/** Points an organisation's fleet store holds: system points and distinct inverter points (by inverter and time). */
export async function storedPointCount(orgId: string) {
  const points = await storedPoints(orgId);
  const inverterPoints = new Set(points.flatMap((p) => p.inverters.map((i) => `${i.inv}|${i.t}`)));
  return points.length + inverterPoints.size;
}

/** Deletes a system's points with times in [fromS, toS) from every table holding points, behind the store's back. */
export async function deleteStoredPoints(orgId: string, sys: number, fromS: number, toS: number) {
  const stub = storeOf(orgId);
  await stub.ensureDirectory(orgId);
  await runInDurableObject(stub, (instance: FleetStore, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND (name GLOB 'points_[0-9]*' OR name = 'system_readings')",
      )
      .toArray()
      .map((row) => String(row.name));
    for (const table of tables)
      sql.exec(`DELETE FROM ${table} WHERE sys = ? AND t >= ? AND t < ?`, sys, fromS, toS);
    instance.noteDirectWrite();
  });
}

/** The table a point of time `t` (epoch seconds) is stored in. */
export const pointTableOf = (t: number) => `points_${Math.floor(t / 86_400)}`;

/** A system's live values as its fleet store holds them (D1 keeps none). */
export async function liveOf(orgId: string, systemId: string) {
  const [values] = await storeOf(orgId).liveValues(orgId, [systemId]);
  return values;
}

const FLEET_TABLES = [
  "sites",
  "portfolios",
  "portfolio_sites",
  "audit_logs",
  "geocode_cache",
  "users",
  "organizations",
];

/** Row counts of the fleet's tables plus which site each system is attached to. */
export async function fleetSnapshot() {
  const counts: Record<string, number> = {};
  for (const table of FLEET_TABLES) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  const assignments = await env.DB.prepare("SELECT id, site_id FROM monitoring_systems ORDER BY id").all();
  const sites = await env.DB.prepare("SELECT * FROM sites ORDER BY id").all();
  const portfolios = await env.DB.prepare("SELECT * FROM portfolios ORDER BY id").all();
  return { counts, assignments: assignments.results, sites: sites.results, portfolios: portfolios.results };
}

/** Runs `request` and asserts it changed no fleet row, attachment, site or portfolio. */
export async function expectFleetUnchanged(request: () => Promise<void>): Promise<void> {
  const before = await fleetSnapshot();
  await request();
  expect(await fleetSnapshot()).toEqual(before);
}

/** A longitude where the sun is high right now (at the equator): "daylight" without mocking time. */
export function sunnyLongitudeNow(): number {
  const now = new Date();
  const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
  const longitude = (12 - utcHours) * 15;
  return longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude;
}

/** A day's loss account, Wh: the expectation and its losses (actual is what they leave). */
export interface LossAccountSeed {
  expected: number;
  weather?: number;
  downtime?: number;
  partialOutage?: number;
  clipping?: number;
  soiling?: number;
  underperformance?: number;
  unmeasured?: number;
}

/** A system's loss account of each given plant-local date, as the store's accounting writes them. */
export async function seedLossAccounts(
  orgId: string,
  systemId: string,
  dates: string[],
  account: LossAccountSeed,
): Promise<void> {
  const [row] = await storeSql<{ sys: number }>(
    orgId,
    "SELECT sys FROM systems WHERE system_id = ?",
    systemId,
  );
  if (!row) throw new Error(`no system ${systemId} in the store`);
  const lost =
    (account.downtime ?? 0) +
    (account.partialOutage ?? 0) +
    (account.clipping ?? 0) +
    (account.soiling ?? 0) +
    (account.underperformance ?? 0) +
    (account.unmeasured ?? 0);
  for (const date of dates) {
    await storeSql(
      orgId,
      `INSERT OR REPLACE INTO system_losses (sys, date, expected_wh, actual_wh, weather_wh, downtime_wh,
         partial_outage_wh, clipping_wh, soiling_wh, underperformance_wh, unmeasured_wh, healthy_reference_wh,
         healthy_actual_wh, soilable_wh, peak_power_w, plateau_steps, precipitation_mm, calibration, ac_limit_w,
         computed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 1, NULL, ?)`,
      row.sys,
      date,
      account.expected,
      account.expected - lost,
      account.weather ?? 0,
      account.downtime ?? 0,
      account.partialOutage ?? 0,
      account.clipping ?? 0,
      account.soiling ?? 0,
      account.underperformance ?? 0,
      account.unmeasured ?? 0,
      Date.now(),
    );
  }
}
