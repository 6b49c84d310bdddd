import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, expect, inject, it } from "vitest";
import type { DashboardSummary, SystemsPage } from "../../schema/api/dashboard";
import { METRICS_PAGE_SIZE } from "../../schema/api/metrics";
import type { Env } from "../../worker/env";
import { ensureDayTable } from "../../worker/fleet/data/points";
import { createFleetDb } from "../../worker/fleet/db";
import { REBUILD_SPACING_FACTOR } from "../../worker/fleet/read-models/cached";
import { LOSSES_PASS_MS } from "../../worker/fleet/schedule";
import { DEFAULT_SHARD_SYSTEMS, shardName } from "../../worker/fleet/shards";
import type { FleetStore } from "../../worker/fleet/store";
import worker from "../../worker/index";
import { createDb } from "../../worker/lib/db";
import type { NormalisedSystem } from "../../worker/providers/types";
import { MAX_SOCKETS_PER_SESSION } from "../../worker/realtime/socket-session";
import { storeSystemsPage } from "../../worker/sync/fleet-pages";
import { storeOf } from "../worker/fleet-helpers";
import {
  BASE,
  call,
  expectStatus,
  login,
  putOrgTariff,
  registerOwner,
  type TestUser,
} from "../worker/helpers";

/**
 * Fleet scale: one organisation of SYSTEMS systems with two inverters each in D1 and in its fleet
 * store, live values, RAW_DAYS of 5-minute readings (system and inverters) for RAW_SYSTEMS of them,
 * and a year of hourly and daily rollups for every system; 32 days of irradiance at every site.
 * The sites lie in three zones where it is afternoon when the bench runs.
 * Reports p50/p95 of the dashboard metrics, the dashboard's summary and a page of its systems
 * list (with the bytes each sends), a 7-day analytics call, the fleet series, storing a
 * sync page of 100 systems, 30 days of losses accounted and read, the fan-out to 500 sockets, and
 * /api/health in the same run; the store's bytes and rows per system-day and system-year; D1's
 * size around 1,000 stored pages.
 * Scale is set by BENCH_SYSTEMS / BENCH_RAW_SYSTEMS (vitest.config.ts).
 */
const SYSTEMS = inject("benchSystems");
const RAW_SYSTEMS = Math.min(SYSTEMS, inject("benchRawSystems"));
/** SQL: whether system row `s` has raw points: sys-0 … sys-(RAW_SYSTEMS - 1), whichever store holds it. */
const hasRaw = (s: string) => `CAST(substr(${s}.system_id, 5) AS INTEGER) < ${RAW_SYSTEMS}`;
const RAW_DAYS = 35;
/**
 * The raw window's last UTC days (today's included) written through the store's write path; two
 * hold the plants' whole local day so far in every zone the sites lie in (UTC-11 to UTC+12).
 */
const PAGED_DAYS = Math.min(RAW_DAYS, inject("benchPagedDays"));
/** Systems a fleet store takes before new ones go to a shard (BENCH_SHARD_SYSTEMS; 0: the stores' default, 5,000). */
const SHARD_SYSTEMS = inject("benchShardSystems");
/** Sync pages in flight at once while seeding: four connections' runs, each storing one page at a time. */
const SEED_PAGES_IN_FLIGHT = 4;
const ROLLUP_DAYS = 365;
const SITES = Math.ceil(SYSTEMS / 20);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP_S = 300;
let owner: TestUser;
const report: string[] = [];
/** Steps started, this one included: all of them, or those a `-t` filter picked. */
let stepsRun = 0;
beforeEach(() => {
  stepsRun++;
});

/**
 * The sites' three zones, chosen when the bench starts so that it is early afternoon, mid
 * afternoon and late afternoon there (13:00, 15:00, 17:00), with the sites' longitudes matching
 * them: the read models then see a day with its morning and afternoon in it, as users do, at
 * whatever hour the bench runs. Zones without daylight saving, one per whole-hour offset.
 */
const ZONE_AT_OFFSET: Record<number, string> = {
  [-11]: "Pacific/Pago_Pago",
  [-10]: "Pacific/Honolulu",
  [-9]: "Pacific/Gambier",
  [-8]: "Pacific/Pitcairn",
  [-7]: "America/Phoenix",
  [-6]: "America/Guatemala",
  [-5]: "America/Bogota",
  [-4]: "America/La_Paz",
  [-3]: "America/Argentina/Buenos_Aires",
  [-2]: "America/Noronha",
  [-1]: "Atlantic/Cape_Verde",
  0: "Africa/Abidjan",
  1: "Africa/Lagos",
  2: "Africa/Johannesburg",
  3: "Asia/Riyadh",
  4: "Asia/Dubai",
  5: "Asia/Karachi",
  6: "Asia/Dhaka",
  7: "Asia/Bangkok",
  8: "Asia/Singapore",
  9: "Asia/Tokyo",
  10: "Australia/Brisbane",
  11: "Pacific/Guadalcanal",
  12: "Pacific/Tarawa",
};
const zoneOffsetsH = [13, 15, 17].map((local) => {
  // In [-11, 12]: UTC-12 has no one living in it, UTC+12 shows the same hour (a day later).
  return ((((local - new Date().getUTCHours() + 11) % 24) + 24) % 24) - 11;
});
const ZONES = zoneOffsetsH.map((offsetH) => ZONE_AT_OFFSET[offsetH] as string);
/** The viewer's zone of the fleet series: mid afternoon. */
const VIEWER_ZONE = ZONES[1] as string;
/** Site number `j`'s place, as the seeding's SQL below computes it. */
const sitePlace = (j: number) => ({
  latitude: 40.0 + (j % 40) * 0.25,
  longitude: (zoneOffsetsH[j % 3] ?? 0) * 15 + (Math.floor(j / 3) % 25) * 0.1,
  timezone: ZONES[j % 3] as string,
});
/** SQL: the zone of site number `index` (0, 1, 2 in turn). */
const zoneOfSite = (index: string) =>
  `CASE ${index} % 3 ${ZONES.map((zone, k) => `WHEN ${k} THEN '${zone}'`).join(" ")} END`;
/** SQL: a site's longitude in its zone (15° an hour), spread over 2.5°. */
const longitudeOfSite = (index: string) =>
  `(CASE ${index} % 3 ${zoneOffsetsH.map((h, k) => `WHEN ${k} THEN ${h * 15}`).join(" ")} END) + ((${index} / 3) % 25) * 0.1`;
/** SQL: the UTC offset in seconds of a zone column. */
const offsetOfZone = (zone: string) =>
  `(CASE ${zone} ${ZONES.map((name, k) => `WHEN '${name}' THEN ${(zoneOffsetsH[k] ?? 0) * 3600}`).join(" ")} ELSE 0 END)`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;

async function timed(times: number, run: () => Promise<unknown>, before?: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    await before?.();
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** A request as the browser makes it (taking gzip), read to its last byte. */
async function fetched(path: string) {
  const res = await call(path, { token: owner.token, headers: { "Accept-Encoding": "gzip, deflate, br" } });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
}

/** Reads `path` one call after another until stopped, as a member's screen beside background work; `stop` answers each call's time. */
function readOverAndOver(path: string): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let reading = true;
  const loop = (async () => {
    while (reading) {
      const began = performance.now();
      await fetched(path);
      times.push(performance.now() - began);
    }
  })();
  return {
    stop: async () => {
      reading = false;
      await loop;
      return times;
    },
  };
}

/** /api/health measured right after each figure, so every figure has its baseline from the same moment. */
async function health() {
  const { p50, p95 } = await timed(20, async () => {
    const res = await SELF.fetch(`${BASE}/api/health`);
    await res.arrayBuffer();
  });
  return `/api/health p50 ${ms(p50)}, p95 ${ms(p95)}`;
}

/** The organisation's stores: its own object, then its shards (worker/fleet/shards.ts). */
async function storesOf(orgId: string) {
  const shards = await runInDurableObject(storeOf(orgId), (_store: FleetStore, state) =>
    state.storage.sql
      .exec("SELECT shard FROM shards ORDER BY shard")
      .toArray()
      .map((row) => Number(row.shard)),
  );
  return [
    storeOf(orgId),
    ...shards.map((shard) => env.FLEET_STORE.get(env.FLEET_STORE.idFromName(shardName(orgId, shard)))),
  ];
}

/** Runs SQL in every store of the organisation (each over the systems it holds); their rows in one list. */
async function storeSql(orgId: string, query: string, ...params: SqlStorageValue[]) {
  const rows: Record<string, SqlStorageValue>[] = [];
  for (const stub of (await storesOf(orgId)).reverse()) {
    rows.push(
      ...(await runInDurableObject(stub, (store: FleetStore, state) => {
        const answer = state.storage.sql.exec(query, ...params).toArray();
        store.noteDirectWrite();
        return answer;
      })),
    );
  }
  return rows;
}

/** One new point of one system stored as a page: what makes the read models rebuild. */
let pointTime = Date.now();
function storeOnePoint() {
  pointTime += 1000;
  return storeOf(owner.orgId).storePage(owner.orgId, {
    directory: [],
    points: [
      {
        systemId: "sys-7",
        time: pointTime,
        state: "online",
        powerW: 1,
        energyTodayWh: 1,
        energyTotalWh: null,
        inverters: [],
      },
    ],
    messages: [],
  });
}

/**
 * Right after a stored page (as after every sync page): the answer, and the read model's rebuild
 * behind it (a fleet this large is answered from its last model while the new one is built).
 */
async function afterAPage(path: string, model: string) {
  const answered: number[] = [];
  const rebuilt: number[] = [];
  const pageMeanwhile: number[] = [];
  for (let i = 0; i < 6; i++) {
    // A large fleet's model is rebuilt no sooner than REBUILD_SPACING_FACTOR times its build time
    // after the last build: wait for that, so each round times a rebuild.
    const held = await runInDurableObject(storeOf(owner.orgId), (store: FleetStore) =>
      (
        store as unknown as { readModels: { cache: Map<string, { buildMs: number; builtAtWallMs: number }> } }
      ).readModels.cache.get(model),
    );
    const wait = held ? held.builtAtWallMs + REBUILD_SPACING_FACTOR * held.buildMs - Date.now() : 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 1));
    await storeOnePoint();
    const start = performance.now();
    await fetched(path);
    answered.push(performance.now() - start);
    // The next sync page arrives while the model is rebuilt: it waits at most one step of the build.
    const pageStart = performance.now();
    await storeOnePoint();
    pageMeanwhile.push(performance.now() - pageStart);
    const rebuilding = await runInDurableObject(storeOf(owner.orgId), async (store: FleetStore) => {
      const running = (
        store as unknown as { readModels: { rebuilding: Map<string, Promise<void>> } }
      ).readModels.rebuilding.get(model);
      await running;
      return running !== undefined;
    });
    if (rebuilding) rebuilt.push(performance.now() - start);
  }
  return `  right after a stored page: answered p50 ${ms(percentile(answered, 50))}, p95 ${ms(percentile(answered, 95))}; its rebuild in the background (started in ${rebuilt.length} of 6 rounds) done after p50 ${ms(percentile(rebuilt, 50))}, p95 ${ms(percentile(rebuilt, 95))}; a page stored during the rebuild p50 ${ms(percentile(pageMeanwhile, 50))}, p95 ${ms(percentile(pageMeanwhile, 95))}`;
}

/** What an answer weighs: its JSON, and on the wire to a browser (the worker's own response, before any client inflates it). */
async function answerBytes(path: string) {
  const plain = await call(path, { token: owner.token, headers: { "Accept-Encoding": "identity" } });
  const jsonBytes = (await plain.arrayBuffer()).byteLength;
  const res = await worker.fetch(
    new Request(`${BASE}${path}`, {
      headers: { Authorization: `Bearer ${owner.token}`, "Accept-Encoding": "gzip, deflate, br" },
    }),
    env,
    createExecutionContext(),
  );
  const wireBytes = (await res.arrayBuffer()).byteLength;
  const gzipped = res.headers.get("Content-Encoding") === "gzip";
  return `${kb(jsonBytes)} of JSON, ${kb(wireBytes)} on the wire${gzipped ? " (gzip)" : ""}`;
}

const d1Bytes = async () => {
  const result = await env.DB.prepare("SELECT 1").run();
  return result.meta.size_after;
};

it(`seeds ${SYSTEMS} systems, ${SYSTEMS * 2} inverters, ${RAW_DAYS} days of readings and a year of rollups`, async () => {
  owner = await registerOwner("Fleet Bench");
  const orgId = owner.orgId;
  const now = Date.now();
  const seedStart = performance.now();
  await env.DB.prepare(
    `INSERT INTO sites (id, org_id, name, address, latitude, longitude, timezone, is_active, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SITES - 1})
     SELECT 'site-' || i, ?, 'Site ' || i, 'Street ' || i, 40.0 + (i % 40) * 0.25, ${longitudeOfSite("i")},
       ${zoneOfSite("i")}, 1, ?, ? FROM n`,
  )
    .bind(orgId, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, site_id,
       latitude, longitude, timezone, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SYSTEMS - 1})
     SELECT 'sys-' || i, ?, CASE i % 4 WHEN 0 THEN 'solis' WHEN 1 THEN 'fronius' WHEN 2 THEN 'sma' ELSE 'solax' END,
       'P' || i, 'System ' || i, 5000 + (i % 50) * 1000, 'online', 'site-' || (i / 20),
       40.0 + ((i / 20) % 40) * 0.25, ${longitudeOfSite("(i / 20)")}, ${zoneOfSite("(i / 20)")}, ?, ? FROM n`,
  )
    .bind(orgId, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO inverters (id, org_id, system_id, provider_inverter_id, serial, state, updated_at)
     SELECT 'inv-' || ms.id || '-' || k.k, ?, ms.id, 'I' || k.k, 'SN' || ms.id || k.k, 'online', ?
     FROM monitoring_systems ms, (SELECT 0 AS k UNION ALL SELECT 1) k WHERE ms.org_id = ?`,
  )
    .bind(orgId, now, orgId)
    .run();
  // 32 days of hourly irradiance at every site's location (what expected energy and losses read).
  const firstHour = Math.floor((now - 32 * DAY) / HOUR) * HOUR;
  await env.DB.prepare(
    `INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2)
     WITH RECURSIVE h(t) AS (SELECT ? UNION ALL SELECT t + ${HOUR} FROM h WHERE t + ${HOUR} <= ?)
     SELECT printf('%.2f,%.2f', s.latitude, s.longitude), h.t,
       max(0, 800 * (1 - abs((((h.t / 1000 + ${offsetOfZone("s.timezone")}) / 60) % 1440) - 720) / 360.0))
     FROM sites s, h WHERE s.org_id = ?`,
  )
    .bind(firstHour, now, orgId)
    .run();

  const store = storeOf(orgId);
  if (SHARD_SYSTEMS > 0) {
    // The stores of this runtime share one environment, as a deployment's do.
    await runInDurableObject(store, (instance: FleetStore) => {
      (instance as unknown as { env: Env }).env.FLEET_SHARD_SYSTEMS = String(SHARD_SYSTEMS);
    });
  }
  const directoryStart = performance.now();
  await store.ensureDirectory(orgId);
  const directoryMs = performance.now() - directoryStart;

  // Store contents before the paged days in SQL, system range by system range so each insert
  // appends in key order; the paged days' points and rollups through the write path below.
  const nowS = Math.floor(now / 1000);
  const rawStartS = Math.floor((now - RAW_DAYS * DAY) / 1000 / STEP_S) * STEP_S;
  const pagedStartS = (Math.floor(nowS / 86_400) - (PAGED_DAYS - 1)) * 86_400;
  const rollupStartHour = Math.floor((now - ROLLUP_DAYS * DAY) / HOUR);
  // A clear day's shape on the plant's own clock (its zone's offset from the systems row).
  const local = (t: string) => `(${t} + ${offsetOfZone("s.timezone")})`;
  const curve = (t: string) => `max(0, (1 - abs(((${local(t)} / 60) % 1440) - 720) / 360.0))`;
  // Live values kept on the rows of systems without points (those past BENCH_RAW_SYSTEMS); a
  // system with points reads its newest one, which is newer.
  await storeSql(
    orgId,
    `UPDATE systems SET state = 1, power_w = CAST(capacity_w * 0.5 AS INTEGER), energy_today_wh = 12000 + sys,
       data_time = CASE WHEN ${hasRaw("systems")} THEN ? ELSE ? END`,
    rawStartS * 1000,
    now - 60_000,
  );
  await storeSql(
    orgId,
    `UPDATE inverters SET state = 1, power_w = 1500, energy_today_wh = 6000, temperature_c = 41.5,
       data_time = CASE WHEN sys IN (SELECT s.sys FROM systems s WHERE ${hasRaw("s")}) THEN ? ELSE ? END`,
    rawStartS * 1000,
    now - 60_000,
  );
  // One table per UTC day of the raw window, as the write path makes them.
  const days: number[] = [];
  for (let day = Math.floor(rawStartS / 86_400); day < pagedStartS / 86_400; day++) days.push(day);
  for (const stub of await storesOf(orgId)) {
    await runInDurableObject(stub, (_store: FleetStore, state) => {
      const fleetDb = createFleetDb(state.storage);
      for (const day of days) ensureDayTable(fleetDb, day);
    });
  }
  const CHUNK = 250;
  for (let first = 1; first <= SYSTEMS; first += CHUNK) {
    const last = first + CHUNK - 1;
    await storeSql(
      orgId,
      `INSERT INTO system_hourly (sys, hour, avg_power_w, samples)
       WITH RECURSIVE h(hour) AS (SELECT ? UNION ALL SELECT hour + 1 FROM h WHERE hour < ?)
       SELECT s.sys, h.hour, CAST(s.capacity_w * 0.8 * ${curve("h.hour * 3600")} AS INTEGER), 12
       FROM systems s, h WHERE s.sys BETWEEN ? AND ? AND (NOT ${hasRaw("s")} OR h.hour < ?)
       ORDER BY s.sys, h.hour`,
      rollupStartHour,
      // The current hour is open: read from its points until it closes.
      Math.floor(now / HOUR) - 1,
      first,
      last,
      // From the paged days on, the write path rolls a system with points' hours up as they close.
      pagedStartS / 3600,
    );
    await storeSql(
      orgId,
      `INSERT INTO system_daily (sys, date, energy_wh, peak_power_w)
       WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${ROLLUP_DAYS})
       SELECT s.sys, date(?, '-' || d.n || ' days'), CAST(s.capacity_w * 4 AS INTEGER), CAST(s.capacity_w * 0.8 AS INTEGER)
       FROM systems s, d WHERE s.sys BETWEEN ? AND ?
         AND (NOT ${hasRaw("s")} OR d.n > ${PAGED_DAYS === 0 ? -1 : PAGED_DAYS})
       ORDER BY s.sys, d.n`,
      new Date(now).toISOString().slice(0, 10),
      first,
      last,
    );
    // Each day's points with the system's two inverters packed in them, as the write path stores them.
    for (const day of days) {
      await storeSql(
        orgId,
        `INSERT INTO points_${day} (sys, t, power_w, energy_today_wh, state, ms, inverters)
         WITH RECURSIVE t(t) AS (SELECT ? UNION ALL SELECT t + ${STEP_S} FROM t WHERE t + ${STEP_S} < ?)
         SELECT s.sys, t.t, CAST(s.capacity_w * 0.8 * ${curve("t.t")} AS INTEGER), ((${local("t.t")} / 60) % 1440) * 10, 1, NULL,
           (SELECT json_group_array(json_array(i.inv, CAST(2500 * ${curve("t.t")} AS INTEGER), ((${local("t.t")} / 60) % 1440) * 5,
              300 + (t.t / 60) % 150, 1)) FROM inverters i WHERE i.sys = s.sys)
         FROM systems s, t WHERE s.sys BETWEEN ? AND ? AND ${hasRaw("s")} ORDER BY s.sys, t.t`,
        Math.max(rawStartS, day * 86_400),
        Math.min(nowS + 1, (day + 1) * 86_400),
        first,
        last,
      );
    }
  }
  const sqlSeededS = (performance.now() - seedStart) / 1000;
  const paged = await storePagedDays(orgId, pagedStartS, nowS);
  const stats = await store.storageStats(orgId);
  report.push(
    `seeded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s (${sqlSeededS.toFixed(0)} s in SQL, ${paged.seconds.toFixed(0)} s of sync pages): ${JSON.stringify(stats.rows)}; ${stats.stores.length} store(s) (the organisation's and ${stats.stores.length - 1} shard(s) of up to ${SHARD_SYSTEMS || DEFAULT_SHARD_SYSTEMS} systems) ${gib(stats.databaseBytes)} in all, the largest ${gib(Math.max(...stats.stores))} (${stats.stores.map(gib).join(", ")}); directory of ${SYSTEMS} systems mirrored from D1 in ${ms(directoryMs)}; sites in ${ZONES.map((zone, k) => `${zone} (${String((new Date(now).getUTCHours() + (zoneOffsetsH[k] ?? 0) + 24) % 24).padStart(2, "0")}:${String(new Date(now).getUTCMinutes()).padStart(2, "0")} there)`).join(", ")}`,
  );
  report.push(
    `  the raw window's last ${PAGED_DAYS} UTC day(s) (from ${new Date(pagedStartS * 1000).toISOString()}) written as syncs write them: ${paged.pages} pages of up to 100 systems with their inverters through storePage, every 5 minutes in time order, ${SEED_PAGES_IN_FLIGHT} in flight, a page p50 ${ms(percentile(paged.pageMs, 50))}, p95 ${ms(percentile(paged.pageMs, 95))}, ${(paged.rowsWritten / Math.max(1, paged.pages)).toFixed(0)} rows written a page (their hours have closed by the clock, so each page rolls its hour and day up again, as a sync catching up does: a live page writes fewer, see the rows per system-day below); the ${RAW_DAYS - PAGED_DAYS} days before in SQL in key order (BENCH_PAGED_DAYS)`,
  );
  if (RAW_SYSTEMS < SYSTEMS) {
    report.push(
      `  raw readings seeded for ${RAW_SYSTEMS} of ${SYSTEMS} systems (BENCH_RAW_SYSTEMS): the reads below take one system's range by key, so the others' points do not change them`,
    );
  }
  expect(stats.rows.systems).toBe(SYSTEMS);
  expect(stats.rows.inverters).toBe(SYSTEMS * 2);
}, 3_600_000);

/**
 * Writes the raw points of [fromS, toS] for the systems with raw points as a live sync stores
 * them: a page of 100 systems with their two inverters through the store's write path, every 5
 * minutes in time order (each page's hours rolled up as they close, its days upserted), with the
 * same clear-day curves and counters on the plants' own clocks as the SQL above. A plant-local
 * day already in progress when the pages start holds only the part the pages wrote.
 */
async function storePagedDays(orgId: string, fromS: number, toS: number) {
  const systems = (await storeSql(
    orgId,
    `SELECT s.system_id, s.capacity_w, s.timezone, json_group_array(i.inverter_id) AS inverters
     FROM systems s JOIN inverters i ON i.sys = s.sys WHERE ${hasRaw("s")} GROUP BY s.sys ORDER BY s.sys`,
  )) as { system_id: string; capacity_w: number; timezone: string; inverters: string }[];
  const offsetS = new Map(ZONES.map((zone, k) => [zone, (zoneOffsetsH[k] ?? 0) * 3600]));
  const plants = systems.map((s) => ({
    systemId: s.system_id,
    capacityW: s.capacity_w,
    offsetS: offsetS.get(s.timezone) ?? 0,
    inverterIds: JSON.parse(s.inverters) as string[],
  }));
  const pointAt = (plant: (typeof plants)[number], t: number) => {
    const minute = Math.floor((t + plant.offsetS) / 60) % 1440;
    const curve = Math.max(0, 1 - Math.abs(minute - 720) / 360);
    const time = t * 1000;
    return {
      systemId: plant.systemId,
      time,
      state: "online" as const,
      powerW: Math.trunc(plant.capacityW * 0.8 * curve),
      energyTodayWh: minute * 10,
      energyTotalWh: null,
      inverters: plant.inverterIds.map((inverterId) => ({
        inverterId,
        time,
        state: "online" as const,
        powerW: Math.trunc(2500 * curve),
        energyTodayWh: minute * 5,
        temperatureC: (300 + (Math.floor(t / 60) % 150)) / 10,
      })),
    };
  };
  const store = storeOf(orgId);
  const pageMs: number[] = [];
  let rowsWritten = 0;
  const started = performance.now();
  const pages: (typeof plants)[] = [];
  for (let first = 0; first < plants.length; first += 100) pages.push(plants.slice(first, first + 100));
  for (let t = fromS; t <= toS; t += STEP_S) {
    for (let next = 0; next < pages.length; next += SEED_PAGES_IN_FLIGHT) {
      await Promise.all(
        pages.slice(next, next + SEED_PAGES_IN_FLIGHT).map(async (page) => {
          const began = performance.now();
          const stored = await store.storePage(orgId, {
            directory: [],
            points: page.map((plant) => pointAt(plant, t)),
            messages: [],
          });
          pageMs.push(performance.now() - began);
          rowsWritten += stored.rowsWritten;
        }),
      );
    }
  }
  return { pages: pageMs.length, pageMs, rowsWritten, seconds: (performance.now() - started) / 1000 };
}

it("measures GET /api/dashboard/metrics", async () => {
  const first = await call("/api/dashboard/metrics", { token: owner.token });
  const body = await first.text();
  expect((JSON.parse(body) as unknown[]).length).toBe(Math.min(SYSTEMS, METRICS_PAGE_SIZE));
  expect(first.headers.get("X-Total-Count")).toBe(String(SYSTEMS));
  const pageCount = Math.ceil(SYSTEMS / METRICS_PAGE_SIZE);
  const { p50, p95 } = await timed(30, () => fetched("/api/dashboard/metrics"));
  report.push(
    `dashboard metrics, a page (${METRICS_PAGE_SIZE} of ${SYSTEMS} systems, ${await answerBytes("/api/dashboard/metrics")}): p50 ${ms(p50)}, p95 ${ms(p95)} (target p95 < 50 ms) · ${await health()}`,
  );
  const lastPage = `/api/dashboard/metrics?page=${pageCount}`;
  const last = await timed(30, () => fetched(lastPage));
  report.push(`  the last page (${pageCount}): p50 ${ms(last.p50)}, p95 ${ms(last.p95)}`);
  // A client that reads the whole fleet follows the links page by page, as an API reader would.
  const walks: number[] = [];
  for (let walk = 0; walk < 5; walk++) {
    const start = performance.now();
    let next: string | null = "/api/dashboard/metrics";
    let entries = 0;
    while (next) {
      const res = await call(next, {
        token: owner.token,
        headers: { "Accept-Encoding": "gzip, deflate, br" },
      });
      entries += ((await res.json()) as unknown[]).length;
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1] ?? null;
    }
    walks.push(performance.now() - start);
    expect(entries).toBe(SYSTEMS);
  }
  report.push(
    `  every page in turn, following the links (${pageCount} pages, parsed): p50 ${ms(percentile(walks, 50))}, worst of 5 ${ms(Math.max(...walks))} · ${await health()}`,
  );
  // Where the time goes: the worker's own answer (the gzip it sends, in the same isolate, nothing
  // inflated), and a client that polls with the tag it holds (304, no body, while nothing changed).
  const headers = { Authorization: `Bearer ${owner.token}`, "Accept-Encoding": "gzip, deflate, br" };
  const answered = await timed(30, async () => {
    const res = await worker.fetch(
      new Request(`${BASE}/api/dashboard/metrics`, { headers }),
      env,
      createExecutionContext(),
    );
    await res.arrayBuffer();
  });
  report.push(
    `  of which the worker's answer (the gzip it sends, before any client inflates it): p50 ${ms(answered.p50)}, p95 ${ms(answered.p95)}`,
  );
  const tag = first.headers.get("ETag") ?? "";
  const revalidated = await timed(30, async () => {
    const res = await call("/api/dashboard/metrics", {
      token: owner.token,
      headers: { "If-None-Match": tag },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(304);
  });
  report.push(
    `  revalidated by a client holding the current tag (If-None-Match, 304 without a body): p50 ${ms(revalidated.p50)}, p95 ${ms(revalidated.p95)} · ${await health()}`,
  );
  report.push(await afterAPage("/api/dashboard/metrics", "metrics"));
});

it("measures the dashboard's first screen: the summary and one page of the systems list", async () => {
  const summaryRes = await call("/api/dashboard/summary", { token: owner.token });
  const summary = (await summaryRes.json()) as DashboardSummary;
  expect(summary.systemCount).toBe(SYSTEMS);
  expect(summary.totals.systemCount).toBe(SYSTEMS);
  const pagePath = "/api/dashboard/systems?page=1&pageSize=50&sort=pr&direction=asc";
  const page = (await (await call(pagePath, { token: owner.token })).json()) as SystemsPage;
  expect(page.items).toHaveLength(50);
  expect(page.total).toBe(SYSTEMS);

  const summaryTimes = await timed(30, () => fetched("/api/dashboard/summary"));
  report.push(
    `dashboard summary (${SYSTEMS} systems' totals, ${await answerBytes("/api/dashboard/summary")}): p50 ${ms(summaryTimes.p50)}, p95 ${ms(summaryTimes.p95)} · ${await health()}`,
  );
  const pageTimes = await timed(30, () => fetched(pagePath));
  report.push(
    `dashboard systems page (50 of ${SYSTEMS}, worst PR first, ${await answerBytes(pagePath)}): p50 ${ms(pageTimes.p50)}, p95 ${ms(pageTimes.p95)} · ${await health()}`,
  );
  // A new order is sorted once per read model, then sliced like the others.
  const byNameFirst = await timed(1, () =>
    fetched("/api/dashboard/systems?page=100&sort=system&direction=desc"),
  );
  const byName = await timed(30, () => fetched("/api/dashboard/systems?page=100&sort=system&direction=desc"));
  report.push(
    `  page 100 by name: first of its order ${ms(byNameFirst.p50)}, then p50 ${ms(byName.p50)}, p95 ${ms(byName.p95)}`,
  );
  const searchPath = `/api/dashboard/systems?q=${encodeURIComponent("system 19")}`;
  const search = await timed(30, () => fetched(searchPath));
  report.push(`  a search ("system 19"): p50 ${ms(search.p50)}, p95 ${ms(search.p95)}`);
  report.push(
    `  the whole fleet as CSV (/api/dashboard/metrics?format=csv, every system), ${await answerBytes("/api/dashboard/metrics?format=csv")}`,
  );
  report.push(await afterAPage("/api/dashboard/summary", "metrics"));
});

it("measures the store's scheduled detection over the whole fleet", async () => {
  // Due now: the alarm runs it as it would every 5 minutes, over every system of the organisation.
  await storeSql(
    owner.orgId,
    "UPDATE meta SET value = ? WHERE key = 'detection_due'",
    String(Date.now() - 1),
  );
  // A member's dashboard reads the summary all along: how long does one wait for the alarm's turns?
  const reader = readOverAndOver("/api/dashboard/summary");
  const start = performance.now();
  // Each store runs its own over the systems it holds, side by side (one thread here).
  const each = await Promise.all(
    (await storesOf(owner.orgId)).map(async (stub) => {
      const began = performance.now();
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      return performance.now() - began;
    }),
  );
  const elapsed = performance.now() - start;
  const reads = await reader.stop();
  const sorted = [...reads].sort((a, b) => a - b);
  report.push(
    `scheduled detection over ${SYSTEMS} systems (one alarm run in each of ${each.length} store(s), side by side: ${each.map(ms).join(", ")}): ${ms(elapsed)} in all; the summary read beside it ${reads.length} times, p50 ${ms(sorted[Math.floor(sorted.length / 2)] ?? 0)}, longest ${ms(sorted.at(-1) ?? 0)} · ${await health()}`,
  );
});

it("measures a 7-day analytics call of one system", async () => {
  const { p50, p95 } = await timed(30, () => fetched("/api/analytics?system=sys-42&range=7d"));
  report.push(
    `7-day analytics of one system (2,016 readings): p50 ${ms(p50)}, p95 ${ms(p95)} (target < 20 ms) · ${await health()}`,
  );
});

it("measures the dashboard's fleet series", async () => {
  const seriesPath = `/api/dashboard/series?tz=${encodeURIComponent(VIEWER_ZONE)}`;
  await fetched(seriesPath);
  const { p50, p95 } = await timed(20, () => fetched(seriesPath));
  report.push(
    `fleet series (${SYSTEMS} systems): p50 ${ms(p50)}, p95 ${ms(p95)} (target < 50 ms) · ${await health()}`,
  );
  report.push(await afterAPage(seriesPath, `series|${VIEWER_ZONE}`));
});

it("measures 30 days of losses: accounted on the store's schedule, a site's losses and the fleet ranking", async () => {
  const orgId = owner.orgId;
  const store = storeOf(orgId);
  await expectStatus(await putOrgTariff(owner, { currency: "EUR", pricePerKwh: 0.25 }), 200);
  // The schedule's passes (LOSSES_PASS_MS each, the next a second later), the first queueing
  // every finished day of the window; timed until every queued day is accounted.
  const now = Date.now();
  const passes: { ms: number; days: number; rowsRead: number; rowsWritten: number; remaining: number }[] = [];
  const started = performance.now();
  for (let queue = true; passes.length < 10_000; queue = false) {
    const pass = await store.settleLosses(orgId, now, LOSSES_PASS_MS, queue);
    passes.push({
      ms: pass.ms,
      days: pass.daysAccounted,
      rowsRead: pass.rowsRead,
      rowsWritten: pass.rowsWritten,
      remaining: pass.remaining,
    });
    if (pass.remaining <= 0 || pass.daysAccounted === 0) break;
  }
  const elapsedS = (performance.now() - started) / 1000;
  const accounted = passes.reduce((sum, pass) => sum + pass.days, 0);
  const busyS = passes.reduce((sum, pass) => sum + pass.ms, 0) / 1000;
  const rowsRead = passes.map((pass) => pass.rowsRead);
  // Systems with raw points come first in key order: the passes over them are what a fleet with
  // every system's points costs.
  const rawDays = RAW_SYSTEMS * 31;
  let covered = 0;
  const rawPasses = passes.filter((pass) => {
    const before = covered;
    covered += pass.days;
    return before < rawDays;
  });
  const rawDaysPerS =
    rawPasses.reduce((sum, pass) => sum + pass.days, 0) /
    (rawPasses.reduce((sum, pass) => sum + pass.ms, 0) / 1000);
  const fullFleetS = (SYSTEMS * 31) / rawDaysPerS;
  const rawRowsPerDay =
    rawPasses.reduce((sum, pass) => sum + pass.rowsRead, 0) /
    rawPasses.reduce((sum, pass) => sum + pass.days, 0);
  const rawWrittenPerDay =
    rawPasses.reduce((sum, pass) => sum + pass.rowsWritten, 0) /
    rawPasses.reduce((sum, pass) => sum + pass.days, 0);
  report.push(
    `losses of ${SYSTEMS} systems' last 31 finished days on the schedule's passes (${LOSSES_PASS_MS / 1000} s each, the next 1 s later): ${accounted} system-days in ${passes.length} passes, ${elapsedS.toFixed(0)} s (${busyS.toFixed(0)} s accounting, ${(busyS + passes.length).toFixed(0)} s on the schedule); a pass p50 ${percentile(
      passes.map((pass) => pass.days),
      50,
    )} system-days, rows read p50 ${percentile(rowsRead, 50)} / max ${Math.max(...rowsRead)}, rows written p50 ${percentile(
      passes.map((pass) => pass.rowsWritten),
      50,
    )}; ${(accounted === 0 ? 0 : passes.reduce((sum, pass) => sum + pass.rowsRead, 0) / accounted).toFixed(0)} rows read per system-day`,
  );
  report.push(
    `  over the ${RAW_SYSTEMS} systems with raw points (${rawPasses.length} passes): ${rawRowsPerDay.toFixed(0)} rows read and ${rawWrittenPerDay.toFixed(1)} written per system-day, ${rawDaysPerS.toFixed(0)} system-days a second of accounting, so ${SYSTEMS} systems × 31 days take ${(fullFleetS / 60).toFixed(1)} min of passes (${((fullFleetS * (LOSSES_PASS_MS + 1000)) / LOSSES_PASS_MS / 60).toFixed(1)} min on the schedule) and one finished day of the whole fleet ${((SYSTEMS / rawDaysPerS) * ((LOSSES_PASS_MS + 1000) / LOSSES_PASS_MS)).toFixed(0)} s`,
  );
  expect(passes.at(-1)?.remaining).toBe(0);

  const from = new Date(now - 30 * DAY).toISOString().slice(0, 10);
  const to = new Date(now - DAY).toISOString().slice(0, 10);
  const sitePath = `/api/losses?siteId=site-0&from=${from}&to=${to}`;
  await fetched(sitePath);
  const site = await timed(30, () => fetched(sitePath));
  report.push(
    `GET /api/losses of one site (20 systems, 30 days; ${await answerBytes(sitePath)}): p50 ${ms(site.p50)}, p95 ${ms(site.p95)} (target < 50 ms) · ${await health()}`,
  );
  for (const days of [30, 7]) {
    const path = `/api/losses/ranking?days=${days}`;
    const firstStart = performance.now();
    await fetched(path);
    const first = performance.now() - firstStart;
    const ranking = await timed(20, () => fetched(path));
    report.push(
      `GET /api/losses/ranking?days=${days} (${SITES} sites; ${await answerBytes(path)}): first ${ms(first)}, then p50 ${ms(ranking.p50)}, p95 ${ms(ranking.p95)} (target < 100 ms) · ${await health()}`,
    );
  }
});

/** A SolisCloud page of 100 of the fleet's solis systems (every fourth) with two inverters each, at `time`. */
function vendorPage(page: number, time: number): NormalisedSystem[] {
  const solisSystems = Math.floor(SYSTEMS / 4);
  return Array.from({ length: 100 }, (_, k) => {
    const i = ((page * 100 + k) % solisSystems) * 4;
    return {
      providerSystemId: `P${i}`,
      name: `System ${i}`,
      address: null,
      // The seeded place (the vendor sends what D1 holds: nothing to rewrite there).
      ...sitePlace(Math.floor(i / 20)),
      capacityW: 5000 + (i % 50) * 1000,
      state: "online",
      powerW: 3000 + ((time / 1000) % 500),
      energyTodayWh: 10_000 + ((time / 60_000) % 1000),
      energyTotalWh: 9_000_000,
      dataTime: time,
      inverters: [0, 1].map((k2) => ({
        providerInverterId: `I${k2}`,
        serial: `SNsys-${i}${k2}`,
        model: null,
        ratedPowerW: null,
        state: "online" as const,
        powerW: 1500,
        energyTodayWh: 5000,
        energyTotalWh: null,
        temperatureC: 40,
        dataTime: time,
      })),
    };
  });
}

it("measures a 7-day analytics call beside loss accounting", async () => {
  const orgId = owner.orgId;
  // The systems with points' days queued again (accounting a day again replaces its account):
  // two passes over them as a newly connected fleet's first month runs, a call read beside them.
  await storeSql(
    orgId,
    `INSERT OR IGNORE INTO losses_due (sys, date)
     SELECT l.sys, l.date FROM system_losses l JOIN systems s ON s.sys = l.sys WHERE ${hasRaw("s")}`,
  );
  const reader = readOverAndOver("/api/analytics?system=sys-42&range=7d");
  let accounted = 0;
  for (let pass = 0; pass < 2; pass++) {
    accounted += (await storeOf(orgId).settleLosses(orgId, Date.now(), LOSSES_PASS_MS, false)).daysAccounted;
  }
  const reads = await reader.stop();
  await storeSql(orgId, "DELETE FROM losses_due");
  report.push(
    `7-day analytics call beside two loss passes (${accounted} system-days of systems with points accounted again): ${reads.length} calls, p50 ${ms(percentile(reads, 50))}, p95 ${ms(percentile(reads, 95))}, longest ${ms(Math.max(...reads))} · ${await health()}`,
  );
  expect(accounted).toBeGreaterThan(0);
});
it("measures storing sync pages of 100 systems with 200 inverters, and D1's size around 1,000 of them", async () => {
  const db = createDb(env.DB);
  const d1Before = await d1Bytes();
  const statsBefore = await storeOf(owner.orgId).storageStats(owner.orgId);
  const full: number[] = [];
  const storeOnly: number[] = [];
  const start = Math.floor(Date.now() / 300_000) * 300_000;
  const PAGES = 1000;
  let rowsWritten = 0;
  for (let page = 0; page < PAGES; page++) {
    // Pages walk the account's systems; every pass over them is one 5-minute cycle later.
    const time = start + Math.floor((page * 100) / Math.floor(SYSTEMS / 4)) * 300_000 + 300_000;
    const began = performance.now();
    const stored = await storeSystemsPage(
      { db, env },
      { orgId: owner.orgId, provider: "solis", connectionId: null, now: Date.now() },
      { systems: vendorPage(page, time), alarms: null, publish: true },
    );
    full.push(performance.now() - began);
    rowsWritten += stored.rowsWritten;
  }
  // The store's own write of a page (the D1 batch and directory read excluded).
  const directory = (await storeOf(owner.orgId).liveValues(owner.orgId, ["sys-0"])).length;
  expect(directory).toBe(1);
  for (let page = 0; page < 50; page++) {
    const time = start + 100 * 300_000 + page * 1000;
    const points = Array.from({ length: 100 }, (_, k) => ({
      systemId: `sys-${page * 100 + k}`,
      time,
      state: "online" as const,
      powerW: 2000,
      energyTodayWh: 9000,
      energyTotalWh: null,
      inverters: [0, 1].map((j) => ({
        inverterId: `inv-sys-${page * 100 + k}-${j}`,
        time,
        state: "online" as const,
        powerW: 1000,
        energyTodayWh: 4500,
        temperatureC: 40,
      })),
    }));
    const began = performance.now();
    await storeOf(owner.orgId).storePage(owner.orgId, { directory: [], points, messages: [] });
    storeOnly.push(performance.now() - began);
  }
  const d1After = await d1Bytes();
  const statsAfter = await storeOf(owner.orgId).storageStats(owner.orgId);
  report.push(
    `sync page of 100 systems / 200 inverters, store write only: p50 ${ms(percentile(storeOnly, 50))}, p95 ${ms(percentile(storeOnly, 95))} (target < 50 ms) · ${await health()}`,
  );
  report.push(
    `  whole page (D1 metadata batch + directory read + store write + publish): p50 ${ms(percentile(full, 50))}, p95 ${ms(percentile(full, 95))}`,
  );
  report.push(
    `D1 around ${PAGES} stored pages: ${kb(d1Before)} before, ${kb(d1After)} after; store grew ${((statsAfter.databaseBytes - statsBefore.databaseBytes) / 2 ** 20).toFixed(1)} MB, ${statsAfter.rows.systemReadings - statsBefore.rows.systemReadings} system readings, ${rowsWritten} store rows written`,
  );
  // D1 keeps metadata only: pages of known systems with unchanged metadata write no D1 row.
  expect(d1After).toBe(d1Before);
});

it("measures the store's rows written and bytes per system-day, system-year and system-decade", async () => {
  const probe = await registerOwner("Bytes Probe");
  const orgId = probe.orgId;
  const PROBE_SYSTEMS = 50;
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, latitude,
       longitude, timezone, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${PROBE_SYSTEMS - 1})
     SELECT 'probe-' || i, ?, 'solis', 'Q' || i, 'Probe ' || i, 10000, 'online', 52.0, 4.9, 'UTC', ?, ? FROM n`,
  )
    .bind(orgId, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO inverters (id, org_id, system_id, provider_inverter_id, serial, state, updated_at)
     SELECT 'pinv-' || ms.id || '-' || k.k, ?, ms.id, 'I' || k.k, 'PS' || ms.id || k.k, 'online', ?
     FROM monitoring_systems ms, (SELECT 0 AS k UNION ALL SELECT 1) k WHERE ms.org_id = ?`,
  )
    .bind(orgId, now, orgId)
    .run();
  const store = storeOf(orgId);
  await store.ensureDirectory(orgId);
  // Two days through the write path, a page of every probe system's point every 5 minutes, as a
  // live sync stores them (the probe's zone is UTC, so the energy counter resets at the day's
  // start). The days are ahead of the clock, so each point arrives while its hour is open (as a
  // live point does); the second day is the steady state (its first page closes the first day's
  // last hour).
  const firstDay = Math.ceil(now / DAY) * DAY + DAY;
  const storeDay = async (dayStart: number) => {
    const bytesBefore = (await store.storageStats(orgId)).databaseBytes;
    let rowsWritten = 0;
    let energyWh = 0;
    for (let step = 0; step < 288; step++) {
      const time = dayStart + step * 300_000;
      const solar = Math.max(0, 1 - Math.abs(step - 144) / 72);
      energyWh += (8000 * solar) / 12;
      const stored = await store.storePage(orgId, {
        directory: [],
        points: Array.from({ length: PROBE_SYSTEMS }, (_, i) => ({
          systemId: `probe-${i}`,
          time,
          state: "online" as const,
          powerW: Math.round(8000 * solar),
          energyTodayWh: Math.round(energyWh),
          energyTotalWh: 1_000_000 + Math.round(energyWh),
          inverters: [0, 1].map((k) => ({
            inverterId: `pinv-probe-${i}-${k}`,
            time,
            state: "online" as const,
            powerW: Math.round(4000 * solar),
            energyTodayWh: Math.round(energyWh / 2),
            temperatureC: 25 + Math.round(solar * 200) / 10,
          })),
        })),
        messages: [],
      });
      rowsWritten += stored.rowsWritten;
    }
    const bytes = (await store.storageStats(orgId)).databaseBytes - bytesBefore;
    return { rowsWritten: rowsWritten / PROBE_SYSTEMS, bytes: bytes / PROBE_SYSTEMS };
  };
  await storeDay(firstDay);
  const day = await storeDay(firstDay + DAY);
  // Rollups a system gathers over a year: 8,760 closed hours and 365 days (SQL, in key order).
  const rollupBytes = async (table: "hourly" | "daily") => {
    const before = (await store.storageStats(orgId)).databaseBytes;
    await storeSql(
      orgId,
      table === "hourly"
        ? `INSERT OR REPLACE INTO system_hourly (sys, hour, avg_power_w, samples)
           WITH RECURSIVE h(hour) AS (SELECT ? UNION ALL SELECT hour + 1 FROM h WHERE hour < ? + 8759)
           SELECT s.sys, h.hour, CAST(8000 * max(0, 1 - abs((h.hour % 24) - 12) / 6.0) AS INTEGER), 12
           FROM systems s, h ORDER BY s.sys, h.hour`
        : `INSERT OR REPLACE INTO system_daily (sys, date, energy_wh, peak_power_w, folded_hours, producing_hours, power_wh)
           WITH RECURSIVE d(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM d WHERE n < 365)
           SELECT s.sys, date('2015-01-01', '+' || d.n || ' days'), 43000, 8000, 24, 12, 43500
           FROM systems s, d ORDER BY s.sys, d.n`,
      ...(table === "hourly"
        ? [Math.floor(firstDay / HOUR) - 20_000, Math.floor(firstDay / HOUR) - 20_000]
        : []),
    );
    return ((await store.storageStats(orgId)).databaseBytes - before) / PROBE_SYSTEMS;
  };
  const hourlyYear = await rollupBytes("hourly");
  const dailyYear = await rollupBytes("daily");
  const stats = await store.storageStats(orgId);
  const rawWindow = RAW_DAYS * day.bytes;
  // Hourly rollups are kept 400 days, then folded into their days; days stay for the system's life.
  const hourlyKept = (400 / 365) * hourlyYear;
  report.push(
    `one system-day with two inverters (${PROBE_SYSTEMS} systems, 288 pages each, through the write path): ${Math.round(day.rowsWritten)} rows written (target ≤ 400), ${kb(day.bytes)} · store rows ${JSON.stringify(stats.rows)}`,
  );
  report.push(
    `one system-year of rollups: 8,760 hours ${kb(hourlyYear)}, 365 days (with their folded hours' figures) ${kb(dailyYear)}`,
  );
  report.push(
    `a system's store after 1 year: ${kb(rawWindow + hourlyYear + dailyYear)} (35 days of points ${kb(rawWindow)}); after 10 years: ${kb(rawWindow + hourlyKept + 10 * dailyYear)} (400 days of hours, 10 years of days)`,
  );
  // The benchmark's organisation with retention running, its systems spread over stores of up to
  // SHARD_SYSTEMS systems (worker/fleet/shards.ts), against one store's 10 GB.
  const perStore = Math.min(SYSTEMS, SHARD_SYSTEMS || DEFAULT_SHARD_SYSTEMS);
  const perSystem = {
    "day 35": rawWindow + (35 / 365) * (hourlyYear + dailyYear),
    "day 365": rawWindow + hourlyYear + dailyYear,
    "year 10": rawWindow + hourlyKept + 10 * dailyYear,
  };
  report.push(
    `${SYSTEMS} systems in ${Math.ceil(SYSTEMS / perStore)} store(s) of up to ${perStore}: ${Object.entries(
      perSystem,
    )
      .map(
        ([when, bytes]) =>
          `${when} ${gib(SYSTEMS * bytes)} in all, the largest store ${gib(perStore * bytes)}`,
      )
      .join("; ")} (one store may hold 10 GiB; it takes no new system past 70 %)`,
  );
  expect(day.rowsWritten).toBeLessThanOrEqual(400);
});

/** `count` of the owner's sockets, as that many browser tabs would open them; `onMessage` hears socket `i`'s messages. */
async function openSockets(
  count: number,
  onMessage: (i: number, message: { type: string; data: unknown }) => void,
) {
  const sockets: WebSocket[] = [];
  let token = owner.token;
  for (let i = 0; i < count; i++) {
    // A session holds at most MAX_SOCKETS_PER_SESSION sockets, as a browser's tabs would.
    if (i > 0 && i % MAX_SOCKETS_PER_SESSION === 0) {
      token = (await expectStatus<{ token: string }>(await login(owner.email), 200)).token;
    }
    const res = await SELF.fetch(`${BASE}/ws`, {
      headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `sunfleet, ${token}` },
    });
    const ws = res.webSocket;
    if (!ws) throw new Error(`socket ${i} was not upgraded (${res.status})`);
    ws.accept();
    ws.addEventListener("message", (event) => onMessage(i, JSON.parse(String(event.data))));
    sockets.push(ws);
  }
  return sockets;
}

/** A promise and the function that settles it once it has been called `times` times. */
function countdown(times: number): { done: Promise<void>; tick: () => void } {
  let left = times;
  let settle: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return {
    done,
    tick: () => {
      if (--left === 0) settle();
    },
  };
}

it("measures fan-out of one update to 500 sockets", async () => {
  const SOCKETS = 500;
  const all = countdown(SOCKETS);
  const sockets = await openSockets(SOCKETS, (_i, message) => {
    if (message.type === "alerts_changed") all.tick();
  });
  const start = performance.now();
  await storeOf(owner.orgId).publish(owner.orgId, [{ type: "alerts_changed", data: { openCount: 1 } }]);
  await all.done;
  const elapsed = performance.now() - start;
  report.push(`fan-out to ${SOCKETS} sockets: ${ms(elapsed)} until the last received (target < 250 ms)`);
  for (const ws of sockets) ws.close(1000, "done");
});

it("measures sync pages of 100 systems / 200 inverters stored with 500 sockets open, until every socket has its frame", async () => {
  const SOCKETS = 500;
  const PAGES = 20;
  const db = createDb(env.DB);
  // Half the sockets show 50 of the page's systems (a dashboard page of them), half 50 systems
  // the page does not hold: those get the page's `systems_updated` count.
  const pageSystems = vendorPage(0, Date.now()).map((system) => `sys-${system.providerSystemId.slice(1)}`);
  const otherSystems = pageSystems.map((id) => `sys-${Number(id.slice(4)) + 1}`);
  const watching = countdown(SOCKETS);
  let page = countdown(SOCKETS);
  const kinds = new Set<string>();
  const sockets = await openSockets(SOCKETS, (_i, message) => {
    if (message.type === "watching") return watching.tick();
    const inFrame = message.type === "batch" ? (message.data as { type: string }[]) : [message];
    const types = inFrame.map((m) => m.type);
    if (types.some((type) => type === "solis_realtime_update" || type === "systems_updated")) {
      for (const type of types) kinds.add(type);
      page.tick();
    }
  });
  sockets.forEach((ws, i) => {
    const systemIds = (i % 2 === 0 ? pageSystems : otherSystems).slice(0, 50);
    ws.send(JSON.stringify({ type: "watch", data: { systemIds, siteIds: [] } }));
  });
  await watching.done;
  const stored: number[] = [];
  const received: number[] = [];
  const first = Math.ceil(Date.now() / 300_000) * 300_000 + 200 * 300_000;
  for (let p = 0; p < PAGES; p++) {
    page = countdown(SOCKETS);
    const began = performance.now();
    await storeSystemsPage(
      { db, env },
      { orgId: owner.orgId, provider: "solis", connectionId: null, now: Date.now() },
      { systems: vendorPage(0, first + p * 300_000), alarms: null, publish: true },
    );
    stored.push(performance.now() - began);
    await page.done;
    received.push(performance.now() - began);
  }
  report.push(
    `sync page of 100 systems / 200 inverters with ${SOCKETS} sockets open (half watching 50 of its systems, half 50 others): stored p50 ${ms(percentile(stored, 50))}, p95 ${ms(percentile(stored, 95))}; every socket's frame received p50 ${ms(percentile(received, 50))}, p95 ${ms(percentile(received, 95))} (target < 1 s) · ${await health()}`,
  );
  expect([...kinds].sort()).toEqual(["solis_realtime_update", "systems_updated"]);
  for (const ws of sockets) ws.close(1000, "done");
});

it("prints the report", () => {
  console.log(["", "Fleet store at scale", ...report.map((line) => `  ${line}`), ""].join("\n"));
  // Every step before this one reported at least a line.
  expect(report.length).toBeGreaterThanOrEqual(stepsRun - 1);
});
