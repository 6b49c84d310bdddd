import { createExecutionContext, runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, inject, it } from "vitest";
import type { FleetStore } from "../../worker/fleet/store";
import worker from "../../worker/index";
import { storeOf } from "../worker/fleet-helpers";
import { BASE, call, registerOwner, type TestUser } from "../worker/helpers";

/**
 * The lists at fleet size: one organisation of SITES sites, one system each with its live values,
 * FREE_SYSTEMS systems on no site, ALERTS alerts, and a week of irradiance at every site. For each
 * list's first page and for a search: p50/p95 with ten readers at once, /api/health's p95 measured
 * at the same moment beside them, and the page's bytes (JSON and on the wire). Scale follows
 * BENCH_SYSTEMS (20,000 unless set).
 */
const SITES = inject("benchSystems");
const FREE_SYSTEMS = 2_000;
const ALERTS = 5_000;
const READERS = 10;
const ROUNDS = 10;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let owner: TestUser;
const report: string[] = [];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function timedFetch(path: string, token?: string): Promise<number> {
  const start = performance.now();
  const res = token
    ? await call(path, { token, headers: { "Accept-Encoding": "gzip, deflate, br" } })
    : await SELF.fetch(`${BASE}${path}`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return performance.now() - start;
}

/** READERS clients reading `path` at once, ROUNDS times each: every read's time. */
async function readTogether(path: string, token?: string): Promise<number[]> {
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      for (let round = 0; round < ROUNDS; round++) samples.push(await timedFetch(path, token));
    }),
  );
  return samples;
}

/**
 * READERS clients reading `path` at once, ROUNDS times each, while one more client reads
 * /api/health in a loop for as long: p50/p95 of both.
 */
async function underLoad(path: string) {
  const health: number[] = [];
  let running = true;
  const healthLoop = (async () => {
    while (running) health.push(await timedFetch("/api/health"));
  })();
  const samples = await readTogether(path, owner.token);
  running = false;
  await healthLoop;
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    healthP95: percentile(health, 95),
    healthCount: health.length,
  };
}

/** What a page weighs: its JSON, and on the wire to a browser (the worker's own gzip). */
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
  return `${kb(jsonBytes)} JSON, ${kb(wireBytes)} on the wire`;
}

async function measure(label: string, path: string) {
  // The first read builds the order (or the model); the figures are of the reads after it.
  await timedFetch(path, owner.token);
  // One reader alone first: what a read costs before ten of them queue on the same thread.
  const alone: number[] = [];
  for (let round = 0; round < ROUNDS; round++) alone.push(await timedFetch(path, owner.token));
  const result = await underLoad(path);
  report.push(
    `${label} (${path}; ${await answerBytes(path)}): alone p50 ${ms(percentile(alone, 50))} · ${READERS} readers p50 ${ms(result.p50)}, p95 ${ms(result.p95)} (target p95 < 50 ms) · /api/health beside it p95 ${ms(result.healthP95)} (${result.healthCount} calls)`,
  );
}

it(`seeds ${SITES} sites with a system each, ${FREE_SYSTEMS} free systems and ${ALERTS} alerts`, async () => {
  owner = await registerOwner("Site Lists Bench");
  const orgId = owner.orgId;
  const now = Date.now();
  const started = performance.now();
  await env.DB.prepare(
    `INSERT INTO sites (id, org_id, name, address, latitude, longitude, country, label, timezone, is_active,
       created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SITES - 1})
     SELECT 'site-' || i, ?, 'Site ' || printf('%05d', i), i || ' Solar Street', 40.0 + (i % 200) * 0.05,
       -5.0 + (i / 200) * 0.1, CASE i % 3 WHEN 0 THEN 'Spain' WHEN 1 THEN 'France' ELSE 'Portugal' END,
       'Client ' || (i % 40), 'Europe/Madrid', 1, ?, ? FROM n`,
  )
    .bind(orgId, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, site_id,
       latitude, longitude, timezone, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${SITES + FREE_SYSTEMS - 1})
     SELECT 'sys-' || i, ?, CASE i % 4 WHEN 0 THEN 'solis' WHEN 1 THEN 'fronius' WHEN 2 THEN 'sma' ELSE 'solax' END,
       'P' || i, 'System ' || printf('%05d', i), 5000 + (i % 50) * 1000,
       CASE WHEN i % 37 = 0 THEN 'alarm' ELSE 'online' END,
       CASE WHEN i < ${SITES} THEN 'site-' || i END, 40.0 + (i % 200) * 0.05, -5.0 + (i / 200) * 0.1,
       'Europe/Madrid', ?, ? FROM n`,
  )
    .bind(orgId, now, now)
    .run();
  await env.DB.prepare(
    `INSERT INTO alerts (id, org_id, system_id, provider, title, message, severity, created_at, resolved, rule)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ALERTS - 1})
     SELECT 'alert-' || i, ?, 'sys-' || ((i * 7) % ${SITES}), 'solis', 'Alert ' || i, 'Bench alert', 'warning',
       ? - i * 60000, CASE WHEN i % 4 = 0 THEN 0 ELSE 1 END, 'vendor_alarm' FROM n`,
  )
    .bind(orgId, now)
    .run();
  const firstHour = Math.floor((now - 2 * DAY) / HOUR) * HOUR;
  await env.DB.prepare(
    `INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2)
     WITH RECURSIVE h(t) AS (SELECT ? UNION ALL SELECT t + ${HOUR} FROM h WHERE t + ${HOUR} <= ?)
     SELECT DISTINCT printf('%.2f,%.2f', s.latitude, s.longitude), h.t,
       max(0, 800 * (1 - abs(((h.t / 60000) % 1440) - 720) / 360.0))
     FROM sites s, h WHERE s.org_id = ?`,
  )
    .bind(firstHour, now, orgId)
    .run();
  const store = storeOf(orgId);
  await store.ensureDirectory(orgId);
  await runInDurableObject(store, (instance: FleetStore, state) => {
    state.storage.sql.exec(
      `UPDATE systems SET state = CASE WHEN sys % 37 = 0 THEN 3 ELSE 1 END,
         power_w = CAST(capacity_w * ((sys * 7919) % 90) / 100.0 AS INTEGER),
         energy_today_wh = 1000 + (sys * 104729) % 40000,
         data_time = CASE WHEN sys % 11 = 0 THEN ? ELSE ? END`,
      now - 3 * HOUR,
      now - 60_000,
    );
    instance.noteDirectWrite();
  });
  report.push(
    `seeded ${SITES} sites (a system each), ${FREE_SYSTEMS} free systems, ${ALERTS} alerts in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const first = await call("/api/sites?pageSize=1", { token: owner.token });
  expect(first.headers.get("X-Total-Count")).toBe(String(SITES));
}, 3_600_000);

/**
 * The floor under every row: ten readers of /api/health (no authentication, no store, no D1) at
 * once, through the same client on the same runtime thread as the lists' readers.
 */
async function healthFloor() {
  for (let round = 0; round < ROUNDS; round++) await timedFetch("/api/health");
  const alone: number[] = [];
  for (let round = 0; round < ROUNDS * READERS; round++) alone.push(await timedFetch("/api/health"));
  const together = await readTogether("/api/health");
  report.push(
    `floor: /api/health alone p50 ${ms(percentile(alone, 50))}, p95 ${ms(percentile(alone, 95))} · ${READERS} readers of it at once p50 ${ms(percentile(together, 50))}, p95 ${ms(percentile(together, 95))}`,
  );
}

it("measures each list's first page and a search with ten readers at once", async () => {
  await healthFloor();
  const built = performance.now();
  await timedFetch("/api/sites?sort=pr&pageSize=50", owner.token);
  report.push(`sites read model built (first read, ${SITES} sites): ${ms(performance.now() - built)}`);
  await measure("sites, first page worst PR first", "/api/sites?sort=pr&pageSize=50");
  await measure("sites, search", `/api/sites?q=${encodeURIComponent("site 1234")}&pageSize=50`);
  await measure(
    "sites, filtered (fault, France) by power",
    "/api/sites?status=fault&country=France&sort=power&pageSize=50",
  );
  await measure("enhanced sites, first page", "/api/sites/enhanced?sort=pr&pageSize=50");
  await measure("enhanced sites, search", `/api/sites/enhanced?q=${encodeURIComponent("P777")}&pageSize=50`);
  await measure("site counts", "/api/sites/counts");
  await measure("site groups by label", "/api/sites/groups?by=label");
  await measure("site map (every site)", "/api/sites/map");
  await measure("available systems, first page", "/api/available-systems?pageSize=50");
  await measure(
    "available systems, search",
    `/api/available-systems?q=${encodeURIComponent("system 21")}&pageSize=50`,
  );
  await measure("analytics, first page worst PR first", "/api/analytics?system=all&sort=pr&pageSize=50");
  await measure(
    "analytics, search",
    `/api/analytics?system=all&q=${encodeURIComponent("system 1999")}&pageSize=50`,
  );
  await measure(
    "alerts, first page (open, most energy lost first)",
    "/api/alerts?state=open&sort=lostEnergy&pageSize=50",
  );
  await measure("alerts, search", `/api/alerts?q=${encodeURIComponent("alert 42")}&pageSize=50`);
  await measure("unpaged /api/sites (first 1,000)", "/api/sites");
  console.log(`\n${report.join("\n")}\n`);
}, 3_600_000);
