// `npm run bench:connect`: a new user connects the sandbox's fleet-scale SolisCloud account, on the
// real clock, through HTTP, against the app served as `npm start` serves it (wrangler dev, local D1
// and Durable Objects). The sandbox runs in this process, refusing a share of the vendor's calls
// with its rate-limit error, and notes when it served each station page, so the time from the
// vendor serving a page to its systems reaching the organisation's sockets can be measured.
//
// Reported: the save's answer time, time until every plant is listed against the vendor's floor,
// /api/sites and /api/health p95 idle, while listing and during the history backfill, live per
// page p50/p95 with SOCKETS sockets open, history days per minute against the vendor's floor, the
// emulator's own answer time for the list calls (p95 and slowest), and D1 rows and bytes added per
// plant.
//
//   ACCOUNT=fleet|world20k   the 2,000-station account (default) or the 20,000-station one
//   REFUSE_PERCENT=5         share of vendor calls answered with the rate-limit error
//   SOCKETS=500              sockets open on the organisation (10 per session)
//   HISTORY_WINDOW_S=180     how long the history backfill is watched after listing
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import WebSocket from "ws";
import { sandboxAccounts } from "../sandbox/accounts";
import { createSandbox } from "../sandbox/app";
import { solisPlants } from "../sandbox/solis";
import { framedMessages, liveFrameSchema } from "../schema/live";
import type { LiveClientMessage } from "../schema/live-client";

const root = path.resolve(import.meta.dirname, "..");
const accountName = process.env.ACCOUNT ?? "fleet";
const account = accountName === "world20k" ? sandboxAccounts.solis[3] : sandboxAccounts.solis[2];
const refusePercent = Number(process.env.REFUSE_PERCENT ?? 5);
const socketCount = Number(process.env.SOCKETS ?? 500);
const historyWindowMs = Number(process.env.HISTORY_WINDOW_S ?? 180) * 1000;
const appPort = Number(process.env.BENCH_PORT ?? 8877);
const sandboxPort = appPort + 1;
const origin = `http://127.0.0.1:${appPort}`;
const SOLIS_PAGE = 100;
/** Sockets whose arrivals are timed: 20 × 20,000 stations stay in memory, 500 × 20,000 would not. */
const ARRIVAL_SAMPLE_SOCKETS = 20;
/** Systems on a page of the dashboard's list. */
const DASHBOARD_PAGE = 50;
/** SolisCloud: 2 calls a second per endpoint. */
const SOLIS_CALL_MS = 500;

const plants = solisPlants(account);
const inverterPages = Math.ceil(plants.reduce((n, p) => n + p.inverters.length, 0) / SOLIS_PAGE);
const stationPages = Math.ceil(plants.length / SOLIS_PAGE);

// ── the vendor, in this process ─────────────────────────────────────────────────────────────
const sandbox = createSandbox();
sandbox.faults.rateLimitShare("solis", refusePercent);
/** When each station page was last served with data, by page number. */
const stationPageServedAt = new Map<number, number>();
const pageOfStation = new Map<string, number>();
/** When the page holding a station's last inverter was served: the earliest a complete station can be stored. */
const lastInverterServedAt = new Map<string, number>();
let stationDayCalls = 0;
/** Calls of the two long lists, refused ones included: each takes one of the vendor's slots. */
const listCalls = { userStationList: 0, inverterDetailList: 0 };
let refusedStationDay = 0;
/** How long the emulator took to answer each list call (it builds only the page asked for). */
const listAnswerMs: number[] = [];
const server = serve({
  port: sandboxPort,
  hostname: "127.0.0.1",
  fetch: async (request: Request) => {
    const listing = request.url.includes("/userStationList");
    for (const endpoint of ["userStationList", "inverterDetailList"] as const) {
      if (request.url.includes(`/${endpoint}`)) listCalls[endpoint]++;
    }
    const history = request.url.includes("/stationDay");
    const body = listing ? ((await request.clone().json()) as { pageNo?: number }) : null;
    const answerStarted = performance.now();
    const response = await sandbox.fetch(request);
    if (/\/(userStationList|inverterDetailList|alarmList)$/.test(new URL(request.url).pathname))
      listAnswerMs.push(performance.now() - answerStarted);
    if (history) {
      stationDayCalls++;
      if (response.status === 429 || !(await response.clone().text()).includes('"success":true'))
        refusedStationDay++;
    }
    if (request.url.includes("/inverterDetailList") && response.ok) {
      const json = (await response.clone().json()) as {
        success?: boolean;
        data?: { records?: { stationId: string }[] };
      };
      const servedAt = Date.now();
      if (json.success)
        for (const r of json.data?.records ?? []) lastInverterServedAt.set(r.stationId, servedAt);
    }
    if (listing && response.ok) {
      const json = (await response.clone().json()) as {
        success?: boolean;
        data?: { page?: { records?: { id: string }[] } };
      };
      const records = json.data?.page?.records;
      if (json.success && records && body?.pageNo) {
        stationPageServedAt.set(body.pageNo, Date.now());
        for (const r of records) pageOfStation.set(r.id, body.pageNo);
      }
    }
    return response;
  },
});

// ── the app, as npm start serves it ─────────────────────────────────────────────────────────
const persist = mkdtempSync(path.join(tmpdir(), "sunfleet-bench-"));
const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
const app: ChildProcess = spawn(
  process.execPath,
  [
    "scripts/start.mjs",
    "--no-build",
    "--no-sandbox",
    "--port",
    String(appPort),
    "--inspector-port",
    String(appPort + 2),
    "--persist-to",
    persist,
  ],
  {
    cwd: root,
    env: {
      ...process.env,
      SOLIS_API_URL: `${sandboxOrigin}/solis`,
      WEATHER_API_URL: `${sandboxOrigin}/weather`,
      GEOCODER_URL: `${sandboxOrigin}/geocoder`,
      EMAIL_API_URL: `${sandboxOrigin}/mail`,
      EMAIL_API_KEY: "sandbox",
    },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let appLog = "";
app.stdout?.on("data", (chunk) => {
  appLog += chunk;
});
app.stderr?.on("data", (chunk) => {
  appLog += chunk;
});

function stop(code: number) {
  app.kill("SIGTERM");
  server.close();
  rmSync(persist, { recursive: true, force: true });
  process.exit(code);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (v: number) => `${Math.round(v)} ms`;
const s = (v: number) => `${(v / 1000).toFixed(1)} s`;

/** A POST on a new TCP connection (no keep-alive pool). */
function postOnFreshConnection(route: string, token: string, body: unknown) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      `${origin}${route}`,
      {
        method: "POST",
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function json<T>(method: string, route: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const probeErrors: string[] = [];

/** Latencies of a route polled every 250 ms until `until` resolves. */
async function probe(route: string, token: string, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.then(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    try {
      const res = await fetch(`${origin}${route}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
    } catch (error) {
      // The local server closes idle keep-alive sockets; a request that met one is counted apart.
      probeErrors.push(`${route}: ${error instanceof Error ? (error.cause ?? error.message) : error}`);
    }
    await sleep(250);
  }
  return latencies;
}

/** The D1 rows of the tables a connection fills, through wrangler's local D1, and its bytes on disk. */
function d1Footprint() {
  const wrangler = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const query =
    "SELECT (SELECT count(*) FROM monitoring_systems) + (SELECT count(*) FROM inverters) + (SELECT count(*) FROM sites) + (SELECT count(*) FROM sync_runs) + (SELECT count(*) FROM history_plan_plants) + (SELECT count(*) FROM audit_logs) + (SELECT count(*) FROM alerts) AS rows_total";
  const out = spawnSync(
    process.execPath,
    [wrangler, "d1", "execute", "DB", "--local", "--persist-to", persist, "--json", "--command", query],
    { cwd: root, encoding: "utf8" },
  );
  const rows = JSON.parse(out.stdout)[0]?.results?.[0]?.rows_total ?? Number.NaN;
  // The local D1 is one SQLite file and its write-ahead log: their size on disk.
  const dir = path.join(persist, "v3", "d1", "miniflare-D1DatabaseObject");
  const bytes = readdirSync(dir)
    .filter((name) => name !== "metadata.sqlite" && /\.sqlite(-wal)?$/.test(name))
    .reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
  return { rows: Number(rows), bytes };
}

async function main() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  const email = `bench-${Date.now()}@example.com`;
  const password = "a long bench password";
  const owner = await json<{ token: string }>("POST", "/api/auth/register", undefined, {
    email,
    password,
    fullName: "Bench Owner",
    companyName: "Bench Fleet",
  });

  // Sockets: SOCKETS of them, ten per session. The first ARRIVAL_SAMPLE_SOCKETS watch every
  // system (an API client, or a screen showing more than a socket may watch) and note when each
  // station's update first arrives; every other socket is a browser on the dashboard: it watches
  // the page it shows (none while the account is empty, then a page of DASHBOARD_PAGE systems of
  // those listed, the pages dealt round the sockets), as the client tells the server.
  const arrivals = new Map<string, number>();
  const sockets: WebSocket[] = [];
  let historyRunId: string | null = null;
  let historyDone = 0;
  let historyTotal = 0;
  let historyStatus = "";
  let bytesReceived = 0;
  /** Systems in the order their first update arrived: the dashboard pages the browsers show. */
  const listedSystemIds: string[] = [];
  const knownSystems = new Set<string>();
  const browsersWatching = new Set<number>();
  const watch = (ws: WebSocket, systemIds: string[]) =>
    ws.send(JSON.stringify({ type: "watch", data: { systemIds, siteIds: [] } } satisfies LiveClientMessage));
  /** Each browser socket watches its page once that page's systems are all listed. */
  const watchListedPages = () => {
    const pages = Math.floor(listedSystemIds.length / DASHBOARD_PAGE);
    for (let i = ARRIVAL_SAMPLE_SOCKETS; i < sockets.length && pages > 0; i++) {
      if (browsersWatching.has(i)) continue;
      const page = (i - ARRIVAL_SAMPLE_SOCKETS) % Math.ceil(plants.length / DASHBOARD_PAGE);
      if (page >= pages) continue;
      const socket = sockets[i];
      if (!socket) continue;
      watch(socket, listedSystemIds.slice(page * DASHBOARD_PAGE, (page + 1) * DASHBOARD_PAGE));
      browsersWatching.add(i);
    }
  };
  let sessionToken = owner.token;
  for (let i = 0; i < socketCount; i++) {
    // At most ten sockets a session, as a browser's tabs would hold them.
    if (i % 10 === 0 && i > 0) {
      sessionToken = (
        await json<{ token: string }>("POST", "/api/auth/login", undefined, { email, password })
      ).token;
    }
    const index = i;
    // The `ws` client with UTF-8 checks off: the sockets stand in for browsers on other machines,
    // so each frame is received (the app sends every byte) but only the sampled sockets decode it.
    const ws = new WebSocket(`${origin.replace("http", "ws")}/ws`, ["sunfleet", sessionToken], {
      skipUTF8Validation: true,
    });
    ws.on("message", (data: Buffer) => {
      bytesReceived += data.length;
      if (index >= ARRIVAL_SAMPLE_SOCKETS) return;
      const at = Date.now();
      for (const message of framedMessages(liveFrameSchema.parse(JSON.parse(data.toString())))) {
        // Arrivals are noted on the sampled sockets (every socket gets the same frames).
        if (message.type === "solis_realtime_update") {
          const key = `${index}:${message.data.stationId}`;
          if (!arrivals.has(key)) arrivals.set(key, at);
          if (!knownSystems.has(message.data.systemId)) {
            knownSystems.add(message.data.systemId);
            listedSystemIds.push(message.data.systemId);
          }
        }
        if (message.type === "sync_progress" && message.data.historyDaysTotal !== undefined) {
          historyRunId = message.data.runId;
          historyDone = Math.max(historyDone, message.data.historyDaysDone ?? 0);
          historyTotal = message.data.historyDaysTotal;
          historyStatus = message.data.status;
        }
      }
      if (index === 0) watchListedPages();
    });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", () => reject(new Error(`socket ${i} did not open`)));
    });
    // An empty dashboard shows no systems.
    if (index >= ARRIVAL_SAMPLE_SOCKETS) watch(ws, []);
    sockets.push(ws);
  }
  console.log(`${sockets.length} sockets open on the organisation`);

  // Idle: nothing connected yet.
  const idleFor = sleep(15_000);
  const [idleHealth, idleSites] = await Promise.all([
    probe("/api/health", owner.token, idleFor),
    probe("/api/sites", owner.token, idleFor),
  ]);
  const before = d1Footprint();

  // Saving the credentials starts the first run; probes run until every plant is listed.
  const savedAt = Date.now();
  let answeredMs = Number.NaN;
  let saveAnswer = "";
  // On a connection of its own: a pooled keep-alive connection the app closes as it idles would
  // fail the save with "other side closed", and a POST is not retried.
  const saved = postOnFreshConnection("/api/credentials", owner.token, {
    provider: "solis",
    credentials: { keyId: account.keyId, keySecret: account.keySecret },
  }).then((res) => {
    answeredMs = Date.now() - savedAt;
    saveAnswer = `${res.status} ${res.text.slice(0, 160)}`;
  });
  let listedMs = Number.NaN;
  const listed = (async () => {
    while (Date.now() - savedAt < 30 * 60_000) {
      await sleep(1000);
      const creds = await json<{ systemsCount: number }[]>("GET", "/api/credentials", owner.token);
      if ((creds[0]?.systemsCount ?? 0) >= plants.length) {
        listedMs = Date.now() - savedAt;
        return;
      }
    }
  })();
  const [listingHealth, listingSites] = await Promise.all([
    probe("/api/health", owner.token, listed),
    probe("/api/sites", owner.token, listed),
    saved,
  ]);
  const afterListing = d1Footprint();
  const listingBytes = bytesReceived;
  // Every plant once: the sites' systems, a page of 1,000 sites at a time. The site lists of a
  // fleet of some size answer their last model while a new one is built behind the answer, so the
  // plants are listed when the list shows them all, read again until it does (for at most a minute).
  const listedInD1Ms = listedMs;
  const listedPlantIds: string[] = [];
  const readSiteList = async () => {
    listedPlantIds.length = 0;
    // Bounded: a list that ignored its page would otherwise be read forever.
    for (let page = 1; page <= Math.ceil(plants.length / 1000) + 1; page++) {
      const sitesPage = await json<{ systems: { providerId: string }[] }[]>(
        "GET",
        `/api/sites/enhanced?page=${page}&pageSize=1000`,
        owner.token,
      );
      if (sitesPage.length === 0) break;
      for (const site of sitesPage) listedPlantIds.push(...site.systems.map((system) => system.providerId));
    }
    return listedPlantIds.length === plants.length && new Set(listedPlantIds).size === plants.length;
  };
  let eachPlantOnce = await readSiteList();
  for (const deadline = Date.now() + 60_000; !eachPlantOnce && Date.now() < deadline; ) {
    await sleep(250);
    eachPlantOnce = await readSiteList();
  }
  if (eachPlantOnce) listedMs = Date.now() - savedAt;
  // The vendor's floor for the calls made: the longer list's calls (refused ones too) 500 ms apart.
  const listingFloorMs =
    (Math.max(listCalls.userStationList, listCalls.inverterDetailList, stationPages, inverterPages) - 1) *
    SOLIS_CALL_MS;
  const listingCalls = { ...listCalls };

  // Live per page: each station's first update on each socket, after its page was served.
  const latencies: number[] = [];
  const afterInverters: number[] = [];
  for (const [key, at] of arrivals) {
    const stationId = key.slice(key.indexOf(":") + 1);
    const page = pageOfStation.get(stationId);
    const servedAt = page ? stationPageServedAt.get(page) : undefined;
    if (servedAt !== undefined) latencies.push(at - servedAt);
    const inverterAt = lastInverterServedAt.get(stationId);
    if (inverterAt !== undefined) afterInverters.push(at - Math.max(inverterAt, servedAt ?? 0));
  }

  // History behind the listing, watched for a while.
  const historyStart = { at: Date.now(), done: historyDone, calls: stationDayCalls };
  const historyWindow = sleep(historyWindowMs);
  const [historyHealth, historySites] = await Promise.all([
    probe("/api/health", owner.token, historyWindow),
    probe("/api/sites", owner.token, historyWindow),
  ]);
  const historyMinutes = (Date.now() - historyStart.at) / 60_000;
  const daysPerMinute = (historyDone - historyStart.done) / historyMinutes;
  const callsPerMinute = (stationDayCalls - historyStart.calls) / historyMinutes;
  // One stationDay call per plant-day at 2 a second: the floor no client can beat.
  const floorDaysPerMinute = 120;

  const row = (name: string, idle: number[], during: number[], history: number[]) =>
    `| ${name} | ${ms(percentile(idle, 0.95))} | ${ms(percentile(during, 0.95))} | ${ms(percentile(history, 0.95))} |`;
  console.log(`
Connecting SolisCloud account ${account.keyId}: ${plants.length} stations in ${new Set(plants.map((p) => p.timezone)).size} zones, ${inverterPages} inverter pages, ${refusePercent} % of calls refused, ${sockets.length} sockets (${Math.min(ARRIVAL_SAMPLE_SOCKETS, sockets.length)} watching every system, ${browsersWatching.size} browsers watching a ${DASHBOARD_PAGE}-system page by the end of the listing)

| figure | measured | bound |
| --- | --- | --- |
| save answered | ${s(answeredMs)} (${saveAnswer.slice(0, 60)}…) | ≤ 20 s |
| every plant listed | ${s(listedMs)} in the site list, ${s(listedInD1Ms)} in D1 (${listedPlantIds.length} plants on sites, each plant once: ${eachPlantOnce}) | ≤ 1.5 × floor ${s(listingFloorMs)} = ${s(1.5 * listingFloorMs)} (${listingCalls.inverterDetailList} inverter list calls for ${inverterPages} pages, ${listingCalls.userStationList} station list calls for ${stationPages}) |
| live per page p50 / p95 (${latencies.length} arrivals) | ${ms(percentile(latencies, 0.5))} / ${ms(percentile(latencies, 0.95))} (after the station's last inverter page: ${ms(percentile(afterInverters, 0.5))} / ${ms(percentile(afterInverters, 0.95))}) | p95 < 2 s |
| history days per minute | ${daysPerMinute.toFixed(1)} (${historyDone} of ${historyTotal} days after ${historyMinutes.toFixed(1)} min, run ${historyRunId ?? "none"} ${historyStatus}; stationDay calls ${callsPerMinute.toFixed(0)}/min, ${refusedStationDay} refused) | floor ${floorDaysPerMinute}/min: ${(historyTotal / floorDaysPerMinute / 60).toFixed(1)} h for the plan; at this rate ${(historyTotal / Math.max(daysPerMinute, 0.001) / 60).toFixed(1)} h |
| the emulator's list answers p95 / max (${listAnswerMs.length} calls) | ${ms(percentile(listAnswerMs, 0.95))} / ${ms(Math.max(...listAnswerMs))} | < 10 s call timeout |
| frames received by the ${sockets.length} sockets while listing | ${(listingBytes / 1e6).toFixed(1)} MB (${(listingBytes / Math.max(1, sockets.length) / 1e3).toFixed(0)} KB a socket) | |
| D1 added per plant by the listing | ${((afterListing.rows - before.rows) / plants.length).toFixed(2)} rows, ${((afterListing.bytes - before.bytes) / plants.length / 1024).toFixed(2)} KB on disk (write-ahead log included) | |

| p95 | idle (no connection) | while listing | during history |
| --- | --- | --- | --- |
${row("/api/health", idleHealth, listingHealth, historyHealth)}
${row("/api/sites", idleSites, listingSites, historySites)}
${probeErrors.length} probe requests failed${probeErrors.length ? `: ${[...new Set(probeErrors)].slice(0, 3).join("; ")}` : ""}
`);
  for (const ws of sockets) ws.close();
  const failed = /sync failed unexpectedly|history unit failed/.exec(appLog);
  if (failed)
    console.log(`The app logged: ${appLog.slice(Math.max(0, failed.index - 200), failed.index + 600)}`);
  if (failed || probeErrors.length > 0) console.log(`The app's log: ${writeAppLog()}`);
}

function writeAppLog() {
  const logFile = path.join(tmpdir(), "sunfleet-bench-connect.log");
  writeFileSync(logFile, appLog);
  return logFile;
}

main().then(
  () => stop(0),
  (error) => {
    console.error(error);
    console.error(`The app's log: ${writeAppLog()}`);
    stop(1);
  },
);
