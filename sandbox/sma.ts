import { type Context, Hono, type MiddlewareHandler } from "hono";
import { DateTime } from "luxon";
import { sandboxAccounts } from "./accounts";
import { rateLimitFaults, requestedFault, type SandboxFaults, vendorFaults } from "./faults";
import { hash } from "./hash";
import { dataTimeAt, inverterPowerW, plantPowerW, type SimPlant, simulatedPlants } from "./simulation";

/**
 * SMA emulator: the Monitoring API data host (/v1/...) and the Keycloak auth host (token and
 * backchannel consent), as two apps mounted at /sma and /sma-auth.
 *
 * - Tokens: client credentials (HTTP Basic or form fields) checked against sandbox/accounts.ts;
 *   they expire after 300 s of sandbox time, and the data host answers 401 for an expired or
 *   unknown bearer token.
 * - Consent: POST /oauth2/v2/bc-authorize {loginHint} answers 201 {"state":"Pending"}; the sandbox
 *   owner approves at once, so the first poll of GET …/bc-authorize/{loginHint} finds "Accepted".
 *   E-mails of no sandbox account are refused (400 unknown_user_id, CIBA's code). Plant data
 *   answers 403 until an owner has accepted; the plants served are the accepting owners'.
 * - Times are plant-local without offset, like SMA's; values come from sandbox/simulation.ts.
 * - EnergyAndPowerPv per device and per plant (the sum of its inverters): `Recent` answers the
 *   newest measurement (W) at its 5-minute time; `Day` answers the plant-local date's buckets,
 *   today's ending with the bucket under way, which holds only the energy measured so far.
 * - The small account's quirk plants (accounts.ts): a plant in Sydney with an energy meter that
 *   records the plant's PV generation in an EnergyAndPowerPv set of its own (it is no inverter:
 *   adding it counts the plant twice), and a plant whose data manager stopped uploading hours ago.
 * - `X-Sandbox-Fault: 500 | 429 | timeout | malformed | partial` on any request.
 */

export interface SmaSandboxOptions {
  now: () => number;
  faults?: SandboxFaults;
}

/** SMA's answer when a credential's bucket is empty (developer.sma.de, rate-limit notice). */
const smaRateLimited = (c: Context) => {
  c.header("Retry-After", "1");
  return c.json(problem(429, "Too Many Requests", "Rate limit of this credential exceeded"), 429);
};

const TOKEN_LIFETIME_S = 300;
const STEP_MS = 5 * 60_000;
const PV_SET = "EnergyAndPowerPv";
const INVERTER_SETS = [PV_SET, "PowerAc", "PowerDc"];
const LOGGER_SETS = ["EnergyAndPowerInOut"];
/** A meter at the PV feed-in point measures the grid exchange and the PV generation it carries. */
const METER_SETS = ["EnergyAndPowerInOut", PV_SET];

type ConsentState = "Pending" | "Accepted";
type SmaAccount = (typeof sandboxAccounts.sma)[number];

interface SmaSandboxState {
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  /** client id → owner e-mail (lower case) → consent state */
  consents: Map<string, Map<string, ConsentState>>;
}

/**
 * The two hosts are one SMA: tokens and consents from the auth host hold on the data host. They
 * share state through the clock function, which one sandbox hands to both of its emulators.
 */
const states = new WeakMap<() => number, SmaSandboxState>();

function stateFor(now: () => number): SmaSandboxState {
  let state = states.get(now);
  if (!state) {
    state = { tokens: new Map(), consents: new Map() };
    states.set(now, state);
  }
  return state;
}

function consentsOf(state: SmaSandboxState, clientId: string): Map<string, ConsentState> {
  let consents = state.consents.get(clientId);
  if (!consents) {
    consents = new Map();
    state.consents.set(clientId, consents);
  }
  return consents;
}

// ---------------------------------------------------------------- plants and devices

/** A simulated plant as SMA serves it, with what makes it harder than the simulation alone. */
export interface SmaSimPlant extends SimPlant {
  /** An energy meter beside the inverters, recording the plant's PV generation. */
  energyMeter: boolean;
  /** How long ago the plant's data manager last uploaded: SMA holds nothing newer. */
  uploadLagMs: number;
}

type SimDevice = { plant: SmaSimPlant; deviceId: string } & (
  | { kind: "inverter"; inverterIndex: number }
  | { kind: "meter" | "logger" }
);

interface AccountIndex {
  plants: SmaSimPlant[];
  plantsById: Map<string, SmaSimPlant>;
  devicesById: Map<string, SimDevice>;
}

const loggerId = (plant: SimPlant) => `${BigInt(plant.id) + 999n}`;
const meterId = (plant: SimPlant) => `${BigInt(plant.id) + 998n}`;

/** How many further simulated plants a quirk plant is looked for in (they cycle through the sites). */
const QUIRK_CANDIDATES = 48;

/**
 * An account's plants: its simulated plants, then one per quirk, each the account's next
 * simulated plant in the quirk's zone (numbered on after the others).
 */
export function smaPlants(account: SmaAccount): SmaSimPlant[] {
  const plain = { energyMeter: false, uploadLagMs: 0 };
  const plants: SmaSimPlant[] = simulatedPlants("sma", account.clientId, account.plants).map((plant) => ({
    ...plant,
    ...plain,
  }));
  if (account.quirkPlants.length === 0) return plants;
  const candidates = simulatedPlants("sma", account.clientId, account.plants + QUIRK_CANDIDATES).slice(
    account.plants,
  );
  for (const quirk of account.quirkPlants) {
    const taken = new Set(plants.map((plant) => plant.id));
    const plant = candidates.find((c) => c.timezone === quirk.timezone && !taken.has(c.id));
    if (!plant) throw new Error(`No simulated SMA plant in ${quirk.timezone} for ${account.clientId}`);
    plants.push({
      ...plant,
      name: `${plant.city} Array ${plants.length + 1}`,
      energyMeter: quirk.energyMeter,
      uploadLagMs: quirk.uploadLagHours * 3_600_000,
    });
  }
  return plants;
}

/** The newest instant whose data SMA holds for the plant. */
export const dataAsOf = (plant: SmaSimPlant, now: number) => now - plant.uploadLagMs;

/** Built once per account: the 500-plant benchmark account is not recomputed per request. */
const accountIndexes = new Map<string, AccountIndex>();

function accountIndex(account: SmaAccount): AccountIndex {
  const cached = accountIndexes.get(account.clientId);
  if (cached) return cached;
  const plants = smaPlants(account);
  const devicesById = new Map<string, SimDevice>();
  for (const plant of plants) {
    plant.inverters.forEach((inverter, inverterIndex) => {
      devicesById.set(inverter.id, { plant, kind: "inverter", inverterIndex, deviceId: inverter.id });
    });
    devicesById.set(loggerId(plant), { plant, kind: "logger", deviceId: loggerId(plant) });
    if (plant.energyMeter)
      devicesById.set(meterId(plant), { plant, kind: "meter", deviceId: meterId(plant) });
  }
  const index = { plants, plantsById: new Map(plants.map((p) => [p.id, p])), devicesById };
  accountIndexes.set(account.clientId, index);
  return index;
}

/**
 * Zone offsets (minutes) per zone and UTC hour: luxon's lookup is slow and a Day series asks up to 288
 * times. Every sandbox zone changes its offset on a whole UTC hour.
 */
const offsetCache = new Map<string, number>();

/** SMA's plant-local wall-clock text, without offset. */
function localTime(at: number, zone: string): string {
  const key = `${zone}:${Math.floor(at / 3_600_000)}`;
  let offsetMinutes = offsetCache.get(key);
  if (offsetMinutes === undefined) {
    if (offsetCache.size > 50_000) offsetCache.clear();
    offsetMinutes = DateTime.fromMillis(at, { zone }).offset;
    offsetCache.set(key, offsetMinutes);
  }
  return new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 19);
}

function splitStreet(street: string): { street: string; streetNo: string } {
  const match = /^(.*)\s(\d+\w*)$/.exec(street);
  return match ? { street: match[1] ?? street, streetNo: match[2] ?? "" } : { street, streetNo: "" };
}

const currencyOf = (country: string) => (country === "US" ? "USD" : country === "AU" ? "AUD" : "EUR");

function plantSummary(plant: SimPlant) {
  return { plantId: plant.id, name: plant.name, timezone: plant.timezone };
}

function plantDetail(plant: SimPlant) {
  const acNominalPower = plant.inverters.reduce((sum, inverter) => sum + inverter.ratedPowerW, 0);
  return {
    ...plantSummary(plant),
    installation: {
      peakPower: plant.capacityW,
      acNominalPower,
      calcAcNominalPower: acNominalPower,
      dcPowerInputMax: Math.round(plant.capacityW * 1.125),
      co2SavingsFactor: 649,
      startUpUtc: `${2018 + (hash(`${plant.id}:startup`) % 6)}-04-01T00:00:00`,
      orientation: { azimuth: plant.azimuthDeg, collectorSlope: plant.tiltDeg },
    },
    location: {
      currencyCode3: currencyOf(plant.country),
      address: {
        country: plant.country,
        federalState: "",
        city: plant.city,
        zipCode: `${1000 + (hash(`${plant.id}:zip`) % 9000)}`,
        ...splitStreet(plant.street),
        longitude: plant.longitude,
        latitude: plant.latitude,
      },
    },
  };
}

function deviceName(device: SimDevice): string {
  if (device.kind === "meter") return "SMA Energy Meter";
  const inverter = device.kind === "inverter" ? device.plant.inverters[device.inverterIndex] : undefined;
  return inverter ? `${inverter.model} SN:${inverter.serial}` : "SMA Data Manager M";
}

function deviceList(plant: SmaSimPlant) {
  const vendor = "SMA Solar Technology AG";
  const meter = {
    deviceId: meterId(plant),
    name: "SMA Energy Meter",
    type: "Energy Meter",
    product: "Energy Meter 2.0",
    productId: 9327,
    serial: `EM${(hash(`${plant.id}:meter`) % 1e9).toString().padStart(9, "0")}`,
    vendor,
    isActive: true,
  };
  return [
    ...plant.inverters.map((inverter) => ({
      deviceId: inverter.id,
      name: `${inverter.model} SN:${inverter.serial}`,
      type: "Solar Inverters",
      product: inverter.model,
      productId: 9099,
      serial: inverter.serial,
      vendor,
      generatorPower: inverter.ratedPowerW,
      generatorPowerDc: Math.round(plant.capacityW * inverter.share),
      isActive: true,
    })),
    {
      deviceId: loggerId(plant),
      name: "SMA Data Manager M",
      type: "Communication products",
      product: "Data Manager M",
      productId: 9410,
      serial: `DM${(hash(`${plant.id}:logger`) % 1e9).toString().padStart(9, "0")}`,
      vendor,
      isActive: true,
    },
    ...(plant.energyMeter ? [meter] : []),
  ];
}

// ---------------------------------------------------------------- shared answers

const problem = (status: number, title: string, detail?: string) => ({
  type: "about:blank",
  title,
  status,
  ...(detail ? { detail } : {}),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A partial answer: half of the main list, each item cut to its first field (or the object so). */
function partialOf(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const firstFieldOnly = (item: unknown) =>
    isRecord(item) ? Object.fromEntries(Object.entries(item).slice(0, 1)) : item;
  const listKey = Object.keys(body).find((key) => Array.isArray(body[key]));
  if (!listKey) return firstFieldOnly(body);
  const list = body[listKey] as unknown[];
  return { ...body, [listKey]: list.slice(0, Math.ceil(list.length / 2)).map(firstFieldOnly) };
}

/** Waits `ms`, or less when the caller gives up (so a timed-out test leaves no timer behind). */
function hang(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

function sandboxFaults(): MiddlewareHandler {
  return async (c, next) => {
    const fault = requestedFault(c);
    if (fault === "500") return c.json(problem(500, "An error occurred while processing your request."), 500);
    if (fault === "429") {
      c.header("Retry-After", "60");
      return c.json(problem(429, "Too Many Requests", "Rate limit of this credential exceeded"), 429);
    }
    if (fault === "timeout") await hang(11_000, c.req.raw.signal);
    if (fault === "malformed") {
      return c.body('{"plants":[{"plantId":"7190', 200, {
        "Content-Type": "application/json; charset=utf-8",
      });
    }
    await next();
    if (fault === "partial" && c.res.status === 200) {
      const body: unknown = await c.res.clone().json();
      c.res = new Response(JSON.stringify(partialOf(body)), {
        status: 200,
        headers: { "Content-Type": "application/json; charset=utf-8" },
      });
    }
  };
}

/** The client a bearer token was issued to, if it is known and unexpired. */
function bearerClient(c: Context, state: SmaSandboxState, now: number): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "");
  const token = match?.[1] ? state.tokens.get(match[1]) : undefined;
  return token && now < token.expiresAt ? token.clientId : null;
}

/** ASP.NET's JWT bearer answer: an empty 401 with the reason in WWW-Authenticate. */
const invalidToken = (c: Context) =>
  c.body(null, 401, {
    "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The token is expired or unknown"',
  });

// ---------------------------------------------------------------- auth host

function clientCredentials(
  authorization: string | undefined,
  form: Record<string, unknown>,
): { id: string; secret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (basic) {
    try {
      const decoded = atob(basic);
      const colon = decoded.indexOf(":");
      if (colon < 0) return null;
      const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));
      return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
    } catch {
      return null;
    }
  }
  const { client_id: id, client_secret: secret } = form;
  return typeof id === "string" && typeof secret === "string" ? { id, secret } : null;
}

export function smaAuthSandbox({ now, faults }: SmaSandboxOptions) {
  const state = stateFor(now);
  const app = new Hono();
  // Standing faults: Keycloak refuses the client with 401 invalid_client.
  app.use(
    "*",
    vendorFaults(faults, "sma", {
      refused: (c) =>
        c.json({ error: "invalid_client", error_description: "Invalid client credentials" }, 401),
    }),
  );
  app.use("*", sandboxFaults());
  app.use("*", rateLimitFaults(faults, "sma", smaRateLimited));

  app.post("/oauth2/token", async (c) => {
    const form = await c.req.parseBody();
    const client = clientCredentials(c.req.header("Authorization"), form);
    const account = sandboxAccounts.sma.find(
      (a) => a.clientId === client?.id && a.clientSecret === client.secret,
    );
    if (!account)
      return c.json({ error: "invalid_client", error_description: "Invalid client credentials" }, 401);
    if (form.grant_type !== "client_credentials") {
      return c.json({ error: "unsupported_grant_type", error_description: "Unsupported grant_type" }, 400);
    }
    const issuedAt = now();
    for (const [token, issued] of state.tokens) if (issued.expiresAt <= issuedAt) state.tokens.delete(token);
    const accessToken = `sma-sandbox.${hash(`${account.clientId}:${issuedAt}`).toString(36)}.${issuedAt.toString(36)}`;
    state.tokens.set(accessToken, {
      clientId: account.clientId,
      expiresAt: issuedAt + TOKEN_LIFETIME_S * 1000,
    });
    return c.json({
      access_token: accessToken,
      expires_in: TOKEN_LIFETIME_S,
      refresh_expires_in: 0,
      token_type: "Bearer",
      "not-before-policy": 0,
      scope: "profile monitoringApi:read email",
    });
  });

  app.post("/oauth2/v2/bc-authorize", async (c) => {
    const clientId = bearerClient(c, state, now());
    if (!clientId) return invalidToken(c);
    const body: unknown = await c.req.json().catch(() => null);
    const loginHint =
      isRecord(body) && typeof body.loginHint === "string" ? body.loginHint.trim().toLowerCase() : "";
    if (!loginHint)
      return c.json({ error: "invalid_request", error_description: "loginHint is required" }, 400);
    if (!sandboxAccounts.sma.some((a) => a.ownerEmail.toLowerCase() === loginHint)) {
      return c.json(
        { error: "unknown_user_id", error_description: "No SMA user is known by this login hint" },
        400,
      );
    }
    const consents = consentsOf(state, clientId);
    if (consents.get(loginHint) === "Accepted") return c.json({ state: "Accepted" }, 200);
    consents.set(loginHint, "Pending");
    return c.json({ state: "Pending" }, 201);
  });

  app.get("/oauth2/v2/bc-authorize/:loginHint", (c) => {
    const clientId = bearerClient(c, state, now());
    if (!clientId) return invalidToken(c);
    const loginHint = c.req.param("loginHint").trim().toLowerCase();
    const consents = consentsOf(state, clientId);
    if (!consents.has(loginHint)) {
      return c.json(
        { error: "not_found", error_description: "No consent was requested for this login hint" },
        404,
      );
    }
    // The sandbox owner approves at once: the first poll already finds the consent accepted.
    consents.set(loginHint, "Accepted");
    return c.json({ state: "Accepted" });
  });

  return app;
}

// ---------------------------------------------------------------- data host

type DataEnv = { Variables: { accounts: AccountIndex[] } };

const findPlant = (c: Context<DataEnv>, plantId: string) =>
  c.var.accounts.map((a) => a.plantsById.get(plantId)).find(Boolean);
const findDevice = (c: Context<DataEnv>, deviceId: string) =>
  c.var.accounts.map((a) => a.devicesById.get(deviceId)).find(Boolean);

type SeriesPoint = { time: string; pvGeneration: number };

/**
 * A Day series (the 5-minute buckets of one plant-local date up to `asOf`, the newest instant SMA
 * holds data for), or null for a bad date. `powerAt` gives a bucket's power in W; with
 * ReturnEnergyValues a completed bucket's energy (Wh) is computed exactly as simulation.ts
 * integrates today's energy. The bucket under way ends the series with the energy measured in it
 * so far (its power without energy values): read as a whole bucket, it understates the power.
 */
function daySeries(
  plant: SmaSimPlant,
  date: string,
  asOf: number,
  energyValues: boolean,
  powerAt: (t: number) => number,
): SeriesPoint[] | null {
  const day = DateTime.fromISO(date, { zone: plant.timezone });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !day.isValid) return null;
  const start = day.startOf("day").toMillis();
  const end = day.plus({ days: 1 }).startOf("day").toMillis();
  const set = [];
  for (let t = start; t < end && t < asOf; t += STEP_MS) {
    const powerW = powerAt(t);
    const measuredMs = Math.min(STEP_MS, asOf - t);
    set.push({
      time: localTime(t, plant.timezone),
      pvGeneration: energyValues ? (powerW * measuredMs) / 3_600_000 : powerW,
    });
  }
  return set;
}

/** A Recent series: the newest 5-minute measurement SMA holds (W, or its bucket's Wh). */
function recentSeries(
  plant: SmaSimPlant,
  asOf: number,
  energyValues: boolean,
  powerAt: (t: number) => number,
) {
  const measuredAt = dataTimeAt(asOf);
  const powerW = powerAt(measuredAt);
  return [
    {
      time: localTime(measuredAt, plant.timezone),
      pvGeneration: energyValues ? (powerW * STEP_MS) / 3_600_000 : powerW,
    },
  ];
}

/** A PV series of a device or plant, or the 400 SMA answers for a period the sandbox does not serve. */
function pvSeries(
  c: Context<DataEnv>,
  plant: SmaSimPlant,
  period: string,
  at: number,
  powerAt: (t: number) => number,
): { set: SeriesPoint[] } | { error: string } {
  const energyValues = (c.req.query("ReturnEnergyValues") ?? "").toLowerCase() === "true";
  const asOf = dataAsOf(plant, at);
  if (period === "Recent") return { set: recentSeries(plant, asOf, energyValues, powerAt) };
  if (period !== "Day") return { error: "The sandbox serves the Recent and Day periods" };
  const set = daySeries(plant, c.req.query("Date") ?? "", asOf, energyValues, powerAt);
  return set ? { set } : { error: "Date must be YYYY-MM-DD" };
}

function deviceHeader(device: SimDevice) {
  return {
    plant: plantSummary(device.plant),
    device: { deviceId: device.deviceId, name: deviceName(device), timezone: device.plant.timezone },
  };
}

export function smaDataSandbox({ now, faults }: SmaSandboxOptions) {
  const state = stateFor(now);
  const app = new Hono<DataEnv>();
  // Standing faults: the data host refuses the bearer token of a client SMA no longer accepts.
  app.use("*", vendorFaults(faults, "sma", { refused: invalidToken }));
  app.use("*", sandboxFaults());
  app.use("*", rateLimitFaults(faults, "sma", smaRateLimited));

  app.use("/v1/*", async (c, next) => {
    const clientId = bearerClient(c, state, now());
    if (!clientId) return invalidToken(c);
    const accepted = [...consentsOf(state, clientId)]
      .filter(([, s]) => s === "Accepted")
      .map(([email]) => email);
    const accounts = sandboxAccounts.sma.filter((a) => accepted.includes(a.ownerEmail.toLowerCase()));
    if (accounts.length === 0) {
      return c.json(problem(403, "Forbidden", "No plant owner has granted this client access"), 403);
    }
    c.set("accounts", accounts.map(accountIndex));
    await next();
  });

  app.get("/v1/plants", (c) => {
    const plants = c.var.accounts.flatMap((a) => a.plants);
    return c.json({
      plants: plants.map((plant) => ({ ...plantSummary(plant), description: `${plant.name} (sandbox)` })),
    });
  });

  app.get("/v1/plants/:plantId", (c) => {
    const plant = findPlant(c, c.req.param("plantId"));
    return plant ? c.json(plantDetail(plant)) : c.json(problem(404, "Not Found", "Unknown plant"), 404);
  });

  app.get("/v1/plants/:plantId/devices/lean", (c) => {
    const plant = findPlant(c, c.req.param("plantId"));
    return plant
      ? c.json({ devices: deviceList(plant) })
      : c.json(problem(404, "Not Found", "Unknown plant"), 404);
  });

  app.get("/v1/devices/:deviceId/measurements/sets", (c) => {
    const device = findDevice(c, c.req.param("deviceId"));
    if (!device) return c.json(problem(404, "Not Found", "Unknown device"), 404);
    const sets = { inverter: INVERTER_SETS, meter: METER_SETS, logger: LOGGER_SETS }[device.kind];
    return c.json({ ...deviceHeader(device), sets });
  });

  app.get("/v1/devices/:deviceId/measurements/sets/:setType/:period", (c) => {
    const device = findDevice(c, c.req.param("deviceId"));
    if (!device) return c.json(problem(404, "Not Found", "Unknown device"), 404);
    const { setType, period } = c.req.param();
    if (setType !== PV_SET || device.kind === "logger") {
      return c.json(
        problem(400, "Bad Request", `The sandbox simulates ${PV_SET} of inverters and meters only`),
        400,
      );
    }
    const { plant } = device;
    // The meter sits where the plant's PV is fed in: it measures all of its inverters.
    const powerAt =
      device.kind === "inverter"
        ? (t: number) => inverterPowerW(plant, device.inverterIndex, t)
        : (t: number) => plantPowerW(plant, t);
    const series = pvSeries(c, plant, period, now(), powerAt);
    if ("error" in series) return c.json(problem(400, "Bad Request", series.error), 400);
    return c.json({ ...deviceHeader(device), setType, resolution: "FiveMinutes", set: series.set });
  });

  // A plant's data sets (plant-level sets as in Basic Reporting): the sum of its inverters
  // (never its meter, which measures the same PV), one call per plant and period.
  app.get("/v1/plants/:plantId/measurements/sets/:setType/:period", (c) => {
    const plant = findPlant(c, c.req.param("plantId"));
    if (!plant) return c.json(problem(404, "Not Found", "Unknown plant"), 404);
    const { setType, period } = c.req.param();
    if (setType !== PV_SET) {
      return c.json(problem(400, "Bad Request", `The sandbox serves ${PV_SET} of plants only`), 400);
    }
    const series = pvSeries(c, plant, period, now(), (t) => plantPowerW(plant, t));
    if ("error" in series) return c.json(problem(400, "Bad Request", series.error), 400);
    return c.json({ plant: plantSummary(plant), setType, resolution: "FiveMinutes", set: series.set });
  });

  return app;
}
