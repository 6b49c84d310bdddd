import { type Context, Hono, type MiddlewareHandler } from "hono";
import { DateTime } from "luxon";
import { sandboxAccounts } from "./accounts";
import { rateLimitFaults, requestedFault, type SandboxFaults, vendorFaults } from "./faults";
import { hash } from "./hash";
import {
  activeFault,
  dataTimeAt,
  inverterEnergyTodayWh,
  inverterEnergyTotalWh,
  inverterPowerW,
  inverterState,
  inverterTemperatureC,
  type SimPlant,
  simulatedPlants,
} from "./simulation";

/**
 * Emulators of SolaX Cloud: the token API (v2 realtimeInfo/get and v1
 * getRealtimeInfo.do, one dongle per inverter, 10 calls a minute per token with the vendor's
 * one-hour ban) and the Developer OpenAPI (client-credentials tokens that expire, code 10000
 * envelopes, 100 calls a minute per application).
 */

type SolaxAccount = (typeof sandboxAccounts.solax)[number];

/** Both APIs of one account see the same plants; dongle i is plant i's first inverter. */
export function solaxPlants(account: SolaxAccount): SimPlant[] {
  return simulatedPlants("solax", account.clientId, account.plants);
}

export const COMMERCIAL_CAPACITY_W = 150_000;
export const COMMERCIAL_INVERTERS = 12;

/**
 * The account's commercial and industrial plants (OpenAPI business type 4): 150 kW behind twelve
 * 12.5 kW three-phase inverters, each plant with its address and coordinates.
 */
export function solaxCommercialPlants(account: SolaxAccount): SimPlant[] {
  return simulatedPlants("solax-ci", account.clientId, account.commercialPlants).map((plant, plantIndex) => ({
    ...plant,
    name: `${plant.city} Logistics Centre ${plantIndex + 1}`,
    capacityW: COMMERCIAL_CAPACITY_W,
    inverters: Array.from({ length: COMMERCIAL_INVERTERS }, (_, i) => ({
      id: `${BigInt(plant.id) + BigInt(1000 + i)}`,
      serial: `XM${(hash(`${plant.id}:ci:${i}`) % 1e9).toString().padStart(9, "0")}`,
      model: "X3-MEGA G2 12.5K",
      ratedPowerW: 12_500,
      share: 1 / COMMERCIAL_INVERTERS,
    })),
  }));
}

const MINUTE_MS = 60_000;
const TOKEN_LIMIT_PER_MINUTE = 10;
const TOKEN_BAN_MS = 60 * MINUTE_MS;
const OPENAPI_LIMIT_PER_MINUTE = 100;
const OPENAPI_TOKEN_LIFETIME_S = 3600;
const PAGE_SIZE = 10;

const VIOLATION =
  "There have been several violations in a row, and the system will prohibit calls within the next hour";

const localTime = (at: number, zone: string) =>
  DateTime.fromMillis(at, { zone }).toFormat("yyyy-MM-dd HH:mm:ss");
const utcIso = (at: number) =>
  DateTime.fromMillis(at, { zone: "utc" }).toISO({ suppressMilliseconds: true }) ?? "";
const kWh = (wh: number, decimals: number) => Number((wh / 1000).toFixed(decimals));

/** Calls within the last minute per key, by sandbox time. */
class SlidingWindow {
  private readonly calls = new Map<string, number[]>();

  /** Records a call; false when it is over the limit. */
  admit(key: string, at: number, limit: number): boolean {
    const recent = (this.calls.get(key) ?? []).filter((time) => time > at - MINUTE_MS);
    recent.push(at);
    this.calls.set(key, recent);
    return recent.length <= limit;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** X-Sandbox-Fault: 500 | 429 | timeout | malformed | partial; `rateLimited` is the vendor's own shape. */
function faults(rateLimited: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    const fault = requestedFault(c);
    if (!fault) return next();
    if (fault === "500") return c.text("Internal Server Error", 500);
    if (fault === "429") return rateLimited(c);
    if (fault === "timeout") {
      await sleep(11_000, c.req.raw.signal);
      return c.text("Gateway Timeout", 504);
    }
    if (fault === "malformed")
      return c.body('{"success":true,"result":{"acpower":', 200, { "Content-Type": "application/json" });
    await next();
    if (fault === "partial" && c.res.ok) {
      // The envelope without its data.
      const { result: _result, ...envelope } = (await c.res.json()) as Record<string, unknown>;
      c.res = new Response(JSON.stringify(envelope), { headers: { "Content-Type": "application/json" } });
    }
  };
}

function tokenRealtime(account: SolaxAccount, wifiSn: string, at: number, withUtc: boolean) {
  const index = (account.wifiSns as readonly string[]).indexOf(wifiSn);
  const plant = solaxPlants(account)[index];
  const inverter = plant?.inverters[0];
  if (!plant || !inverter) return null;
  const dataTime = dataTimeAt(at);
  const state = inverterState(plant, 0, dataTime);
  const acpower = inverterPowerW(plant, 0, dataTime);
  return {
    inverterSN: inverter.serial,
    sn: wifiSn,
    acpower,
    yieldtoday: kWh(inverterEnergyTodayWh(plant, 0, at), 1),
    yieldtotal: kWh(inverterEnergyTotalWh(plant, 0, at), 1),
    feedinpower: Math.round(acpower * 0.6),
    feedinenergy: kWh(inverterEnergyTotalWh(plant, 0, at) * 0.6, 2),
    consumeenergy: kWh(2_000_000 + (hash(`${plant.id}:grid`) % 1_000_000), 2),
    feedinpowerM2: 0,
    soc: null,
    peps1: 0,
    peps2: null,
    peps3: null,
    inverterType: "15",
    inverterStatus: state === "fault" ? "103" : state === "online" ? "102" : "100",
    uploadTime: localTime(dataTime, plant.timezone),
    ...(withUtc ? { utcDateTime: utcIso(dataTime) } : {}),
    batPower: null,
    powerdc1: Math.round(acpower * 0.52),
    powerdc2: Math.round(acpower * 0.51),
    powerdc3: null,
    powerdc4: null,
    batStatus: null,
  };
}

export function solaxTokenSandbox(options: { now: () => number; faults?: SandboxFaults }) {
  const now = options.now;
  const app = new Hono();
  const window = new SlidingWindow();
  const bannedUntil = new Map<string, number>();
  const violation = (tokenId: string) => ({ exception: VIOLATION, code: 1, tokenId, success: false });

  // Standing faults: an unknown or revoked token is code 103 "token invalid!" in a 200 answer.
  app.use(
    "*",
    vendorFaults(options.faults, "solax", {
      refused: (c) => c.json({ success: false, exception: "token invalid!", code: 103 }),
    }),
  );
  app.use(
    "*",
    faults((c) => c.json(violation(c.req.header("tokenId") ?? c.req.query("tokenId") ?? ""))),
  );
  app.use(
    "*",
    rateLimitFaults(options.faults, "solax", (c) =>
      c.json(violation(c.req.header("tokenId") ?? c.req.query("tokenId") ?? "")),
    ),
  );

  /** Rate limit per token: above 10 calls a minute the token is banned for an hour. */
  const overLimit = (tokenId: string) => {
    const at = now();
    if ((bannedUntil.get(tokenId) ?? 0) > at) return true;
    if (window.admit(tokenId, at, TOKEN_LIMIT_PER_MINUTE)) return false;
    bannedUntil.set(tokenId, at + TOKEN_BAN_MS);
    return true;
  };
  const accountOf = (tokenId: string) => sandboxAccounts.solax.find((account) => account.tokenId === tokenId);

  app.post("/api/v2/dataAccess/realtimeInfo/get", async (c) => {
    const tokenId = c.req.header("tokenId") ?? "";
    const account = accountOf(tokenId);
    if (!account) return c.json({ success: false, exception: "token invalid!", code: 103 });
    if (overLimit(tokenId)) return c.json(violation(tokenId));
    const body = (await c.req.json().catch(() => null)) as { wifiSn?: unknown } | null;
    const wifiSn = typeof body?.wifiSn === "string" ? body.wifiSn : "";
    if (!wifiSn)
      return c.json({ success: false, exception: "Parameter validation failed", result: null, code: 1002 });
    const result = tokenRealtime(account, wifiSn, now(), true);
    if (!result) return c.json({ success: false, exception: "no auth!", result: null, code: 1003 });
    return c.json({ success: true, exception: "Query success!", result, code: 0 });
  });

  // v1 answers an unknown token and a foreign dongle alike: the only v1 error on record.
  app.get("/proxyApp/proxy/api/getRealtimeInfo.do", (c) => {
    const tokenId = c.req.query("tokenId") ?? "";
    const account = accountOf(tokenId);
    const notAccessed = { success: false, exception: "Query success!", result: "this sn did not access!" };
    if (!account) return c.json(notAccessed);
    if (overLimit(tokenId)) return c.json(violation(tokenId));
    const result = tokenRealtime(account, c.req.query("sn") ?? "", now(), false);
    if (!result) return c.json(notAccessed);
    return c.json({ success: true, exception: "Query success!", result, code: 0 });
  });

  return app;
}

// ---- Developer OpenAPI ----

type OpenApiEnv = { Variables: { account: SolaxAccount } };

const envelope = (code: number, message: string, result: unknown = null) => ({ code, message, result });

/** Stateless tokens: account, expiry and a keyed check value (not security, a sandbox). */
function issueToken(account: SolaxAccount, expiresAt: number): string {
  const check = hash(`${account.clientSecret}:${expiresAt}`).toString(16);
  return `sbx-${hash(account.clientId).toString(16)}-${expiresAt}-${check}`;
}

function accountOfToken(token: string, at: number): SolaxAccount | null {
  const [prefix, clientHash, expires, check] = token.split("-");
  const expiresAt = Number(expires);
  if (prefix !== "sbx" || !Number.isFinite(expiresAt) || expiresAt <= at) return null;
  const account = sandboxAccounts.solax.find(
    (candidate) => hash(candidate.clientId).toString(16) === clientHash,
  );
  return account && hash(`${account.clientSecret}:${expiresAt}`).toString(16) === check ? account : null;
}

function paged<T>(c: Context, items: T[]) {
  const pageNo = Math.max(1, Number(c.req.query("pageNo") ?? 1) || 1);
  return {
    records: items.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE),
    total: items.length,
    size: PAGE_SIZE,
    current: pageNo,
    pages: Math.max(1, Math.ceil(items.length / PAGE_SIZE)),
  };
}

interface SimDevice {
  plant: SimPlant;
  index: number;
  registerNo: string;
  /** 1 residential, 4 commercial and industrial. */
  businessType: number;
}

/** Residential plants are business type 1, commercial ones 4. */
function plantsOf(account: SolaxAccount): { plant: SimPlant; businessType: number }[] {
  return [
    ...solaxPlants(account).map((plant) => ({ plant, businessType: 1 })),
    ...solaxCommercialPlants(account).map((plant) => ({ plant, businessType: 4 })),
  ];
}

function devicesOf(account: SolaxAccount): Map<string, SimDevice> {
  const devices = new Map<string, SimDevice>();
  plantsOf(account).forEach(({ plant, businessType }, plantIndex) => {
    plant.inverters.forEach((inverter, index) => {
      const registerNo =
        index === 0 && businessType === 1 && account.wifiSns[plantIndex]
          ? account.wifiSns[plantIndex]
          : `SV${(hash(`${inverter.id}:dongle`) % 1e8).toString(36).toUpperCase().padStart(8, "0")}`;
      devices.set(inverter.serial, { plant, index, registerNo, businessType });
    });
  });
  return devices;
}

function realtimeRow(serial: string, device: SimDevice, at: number) {
  const { plant, index } = device;
  const dataTime = dataTimeAt(at);
  const state = inverterState(plant, index, dataTime);
  const powerW = inverterPowerW(plant, index, dataTime);
  const todayWh = inverterEnergyTodayWh(plant, index, at);
  const totalWh = inverterEnergyTotalWh(plant, index, at);
  return {
    deviceSn: serial,
    registerNo: device.registerNo,
    deviceStatus: state === "fault" ? 103 : state === "online" ? 102 : 100,
    onlineStatus: 1,
    dataTime: utcIso(dataTime),
    plantLocalTime: localTime(dataTime, plant.timezone),
    acPower1: powerW,
    acPower2: null,
    acPower3: null,
    totalActivePower: powerW,
    totalReactivePower: 0,
    gridFrequency: 50.0,
    inverterTemperature: inverterTemperatureC(plant, index, dataTime),
    dailyACOutput: kWh(todayWh, 2),
    totalACOutput: kWh(totalWh, 1),
    dailyYield: kWh(todayWh, 2),
    totalYield: kWh(totalWh, 1),
  };
}

export function solaxOpenApiSandbox(options: { now: () => number; faults?: SandboxFaults }) {
  const now = options.now;
  const app = new Hono<OpenApiEnv>();
  const window = new SlidingWindow();
  const devicesByClient = new Map<string, Map<string, SimDevice>>();
  const devicesFor = (account: SolaxAccount) => {
    let devices = devicesByClient.get(account.clientId);
    if (!devices) {
      devices = devicesOf(account);
      devicesByClient.set(account.clientId, devices);
    }
    return devices;
  };
  const rateLimited = (c: Context) =>
    c.json(envelope(10406, "Request frequency exceeds the limit, try again later"));

  // Standing faults: the token request is refused with 10401, a token already issued with 10402.
  app.use(
    "*",
    vendorFaults(options.faults, "solax-openapi", {
      refused: (c) =>
        c.req.path.endsWith("/oauth/token")
          ? c.json(envelope(10401, "client_id or client_secret is incorrect"))
          : c.json(envelope(10402, "access_token is invalid or has expired")),
    }),
  );
  app.use("*", faults(rateLimited));
  app.use("*", rateLimitFaults(options.faults, "solax-openapi", rateLimited));

  app.post("/openapi/auth/oauth/token", async (c) => {
    const form = await c.req.parseBody();
    const account = sandboxAccounts.solax.find(
      (candidate) => candidate.clientId === form.client_id && candidate.clientSecret === form.client_secret,
    );
    if (!account || form.grant_type !== "client_credentials") {
      return c.json(envelope(10401, "client_id or client_secret is incorrect"));
    }
    if (!window.admit(account.clientId, now(), OPENAPI_LIMIT_PER_MINUTE)) return rateLimited(c);
    const expiresAt = now() + OPENAPI_TOKEN_LIFETIME_S * 1000;
    return c.json(
      envelope(0, "success", {
        access_token: issueToken(account, expiresAt),
        token_type: "bearer",
        expires_in: OPENAPI_TOKEN_LIFETIME_S,
        scope: "all",
        grant_type: "client_credentials",
        auth_station: solaxPlants(account)[0]?.id ?? "",
      }),
    );
  });

  app.use("/openapi/v2/*", async (c, next) => {
    const token = (c.req.header("Authorization") ?? "").replace(/^bearer\s+/i, "");
    const account = accountOfToken(token, now());
    if (!account) return c.json(envelope(10402, "access_token is invalid or has expired"));
    if (!window.admit(account.clientId, now(), OPENAPI_LIMIT_PER_MINUTE)) return rateLimited(c);
    c.set("account", account);
    return next();
  });

  /** Every call names its business type; a plant or device of the other type is not found. */
  const businessType = (c: Context) => Number(c.req.query("businessType") ?? "1");

  app.get("/openapi/v2/plant/page_plant_info", (c) => {
    const records = plantsOf(c.get("account"))
      .filter((entry) => entry.businessType === businessType(c))
      .map(({ plant, businessType }) => ({
        plantId: plant.id,
        plantName: plant.name,
        businessType,
        pvCapacity: plant.capacityW / 1000,
        plantAddress: `${plant.street}, ${plant.city}, ${plant.country}`,
        latitude: plant.latitude,
        longitude: plant.longitude,
      }));
    return c.json(envelope(10000, "success", paged(c, records)));
  });

  app.get("/openapi/v2/device/page_device_info", (c) => {
    const plantId = c.req.query("plantId");
    const inverters = (c.req.query("deviceType") ?? "1") === "1";
    const records = inverters
      ? [...devicesFor(c.get("account")).entries()]
          .filter(([, device]) => device.businessType === businessType(c))
          .filter(([, device]) => !plantId || device.plant.id === plantId)
          .map(([serial, device]) => ({
            deviceSn: serial,
            registerNo: device.registerNo,
            plantId: device.plant.id,
            deviceType: 1,
            businessType: device.businessType,
            onlineStatus: 1,
            deviceModel: 15,
          }))
      : [];
    return c.json(envelope(10000, "success", paged(c, records)));
  });

  app.get("/openapi/v2/device/realtime_data", (c) => {
    const serials = (c.req.query("snList") ?? "").split(",").filter(Boolean);
    if (serials.length === 0 || serials.length > 10) {
      return c.json(envelope(10200, "snList must hold 1 to 10 serial numbers"));
    }
    const devices = devicesFor(c.get("account"));
    const at = now();
    const rows = serials.flatMap((serial) => {
      const device = devices.get(serial);
      return device && device.businessType === businessType(c) && (c.req.query("deviceType") ?? "1") === "1"
        ? [realtimeRow(serial, device, at)]
        : [];
    });
    return c.json(envelope(10000, "success", rows));
  });

  // Past 5-minute rows of up to 10 inverters over a window of at most 11 hours (the documentation:
  // "windows of at most about 11 h"; startTime and endTime in epoch ms, parameters assumed), each
  // row as realtime_data answered it at that time.
  app.get("/openapi/v2/device/history_data", (c) => {
    const serials = (c.req.query("snList") ?? "").split(",").filter(Boolean);
    if (serials.length === 0 || serials.length > 10) {
      return c.json(envelope(10200, "snList must hold 1 to 10 serial numbers"));
    }
    const start = Number(c.req.query("startTime"));
    const end = Number(c.req.query("endTime"));
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start || end - start > 11 * 3_600_000) {
      return c.json(envelope(10200, "startTime and endTime must span at most 11 hours"));
    }
    const devices = devicesFor(c.get("account"));
    const step = 5 * 60_000;
    const until = Math.min(end, dataTimeAt(now()) + 1);
    const rows = serials.flatMap((serial) => {
      const device = devices.get(serial);
      if (!device || device.businessType !== businessType(c)) return [];
      const deviceRows = [];
      for (let t = Math.ceil(start / step) * step; t < until; t += step)
        deviceRows.push(realtimeRow(serial, device, t));
      return deviceRows;
    });
    return c.json(envelope(10000, "success", rows));
  });

  app.get("/openapi/v2/alarm/page_alarm_info", (c) => {
    const plant = plantsOf(c.get("account")).find(
      (candidate) =>
        candidate.plant.id === c.req.query("plantId") && candidate.businessType === businessType(c),
    )?.plant;
    if (!plant) return c.json(envelope(10200, "plantId does not belong to this application"));
    const at = now();
    const ongoingWanted = (c.req.query("alarmState") ?? "1") === "1";
    const records = plant.inverters.flatMap((inverter, index) => {
      const fault = activeFault(plant, index, at);
      if (!fault || !ongoingWanted) return [];
      return [
        {
          deviceSn: inverter.serial,
          deviceType: 1,
          deviceModel: "15",
          errorCode: fault.code,
          alarmName: fault.message,
          alarmStartTime: localTime(fault.startsAt, plant.timezone),
          alarmState: 1,
        },
      ];
    });
    return c.json(envelope(10000, "success", paged(c, records)));
  });

  return app;
}
