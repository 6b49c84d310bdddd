import { type Context, Hono, type MiddlewareHandler } from "hono";
import { DateTime } from "luxon";
import { sandboxAccounts } from "./accounts";
import { rateLimitFaults, requestedFault, type SandboxFaults, vendorFaults } from "./faults";
import { hash } from "./hash";
import { lossPlants } from "./losses";
import {
  activeFault,
  dataTimeAt,
  plantEnergyTodayWh,
  plantPowerW,
  plantState,
  type SimPlant,
  simulatedPlants,
} from "./simulation";

/**
 * Emulator of the Fronius Solar.web Query API: access-key headers, the 401 body
 * with responseError 1102, offset/limit pages with links, W and Wh channels, UTC times.
 */

type FroniusAccount = (typeof sandboxAccounts.fronius)[number];
type Env = { Variables: { account: FroniusAccount } };

const PAGE_LIMIT_MAX = 100;

/** A stable GUID for a simulated id: Solar.web ids are GUIDs, the simulation's are numbers. */
export function froniusGuid(seed: string): string {
  const hex = [0, 1, 2, 3].map((i) => hash(`${seed}:${i}`).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The simulated plants behind a sandbox access key, with their Solar.web ids. */
export function froniusPlants(accessKeyId: string): SimPlant[] {
  const account = sandboxAccounts.fronius.find((candidate) => candidate.accessKeyId === accessKeyId);
  if (!account) return [];
  return "losses" in account
    ? lossPlants("fronius")
    : simulatedPlants("fronius", account.accessKeyId, account.plants);
}

const iso = (at: number) =>
  DateTime.fromMillis(at, { zone: "utc" }).toISO({ suppressMilliseconds: true }) ?? "";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** X-Sandbox-Fault: 500 | 429 | timeout | malformed | partial, for the adapter's failure tests. */
const faults: MiddlewareHandler = async (c, next) => {
  const fault = requestedFault(c);
  if (!fault) return next();
  if (fault === "500") return c.json({ responseError: 500, responseMessage: "Internal server error" }, 500);
  if (fault === "429") {
    return c.json({ responseError: 429, responseMessage: "Too many requests" }, 429, { "Retry-After": "60" });
  }
  if (fault === "timeout") {
    await sleep(11_000, c.req.raw.signal);
    return c.json({ responseError: 504, responseMessage: "Gateway timeout" }, 504);
  }
  if (fault === "malformed")
    return c.body('{"pvSystems": [{"pvSystemId": ', 200, { "Content-Type": "application/json" });
  await next();
  if (fault === "partial" && c.res.ok) {
    // The envelope without its data: ids and links only.
    const body = (await c.res.json()) as Record<string, unknown>;
    const kept = Object.fromEntries(
      Object.entries(body).filter(([key]) => key === "links" || key === "pvSystemId"),
    );
    c.res = new Response(JSON.stringify(kept), { headers: { "Content-Type": "application/json" } });
  }
};

function page(c: Context, total: number) {
  const offset = Math.max(0, Number(c.req.query("offset") ?? 0) || 0);
  const limit = Math.min(
    PAGE_LIMIT_MAX,
    Math.max(1, Number(c.req.query("limit") ?? PAGE_LIMIT_MAX) || PAGE_LIMIT_MAX),
  );
  const link = (at: number) => {
    const url = new URL(c.req.url);
    url.searchParams.set("offset", String(at));
    url.searchParams.set("limit", String(limit));
    return url.toString();
  };
  const lastOffset = Math.max(0, Math.floor((total - 1) / limit) * limit);
  return {
    offset,
    limit,
    links: {
      first: link(0),
      prev: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      self: link(offset),
      next: offset + limit < total ? link(offset + limit) : null,
      last: link(lastOffset),
      totalItemsCount: total,
    },
  };
}

function pvSystem(plant: SimPlant) {
  return {
    pvSystemId: froniusGuid(plant.id),
    name: plant.name,
    address: { country: plant.country, zipCode: null, street: plant.street, city: plant.city, state: null },
    pictureURL: null,
    peakPower: plant.capacityW,
    installationDate: "2022-07-01T00:00:00Z",
    lastImport: null,
    meteoData: "pro",
    timeZone: plant.timezone,
  };
}

function devices(plant: SimPlant) {
  const datalogger = `240.${(hash(`${plant.id}:logger`) % 1_000_000).toString().padStart(6, "0")}`;
  return [
    ...plant.inverters.map((inverter) => ({
      deviceType: "Inverter",
      deviceId: froniusGuid(inverter.id),
      deviceName: inverter.model,
      deviceManufacturer: "Fronius",
      serialnumber: inverter.serial,
      deviceTypeDetails: inverter.model,
      dataloggerId: datalogger,
      nodeType: 97,
      numberMPPTrackers: 2,
      numberPhases: 3,
      peakPower: {
        dc1: Math.round(inverter.ratedPowerW / 2),
        dc2: Math.round(inverter.ratedPowerW / 2),
        dc3: null,
        dc4: null,
      },
      nominalAcPower: inverter.ratedPowerW,
      firmware: { updateAvailable: false, installedVersion: "3.25.2-1", availableVersion: null },
      isActive: true,
      activationDate: "2022-07-01T09:00:00Z",
      deactivationDate: null,
    })),
    {
      deviceType: "DataLogger",
      deviceId: froniusGuid(`${plant.id}:logger`),
      deviceName: "Datamanager 2.0",
      deviceManufacturer: "Fronius",
      serialnumber: datalogger,
      isActive: true,
      activationDate: "2022-07-01T09:00:00Z",
      deactivationDate: null,
    },
  ];
}

/** Energy produced on one plant-local day, as of `at` (the whole day when it is over). */
function dayEnergyWh(plant: SimPlant, isoDate: string, at: number): number | null {
  const start = DateTime.fromISO(isoDate, { zone: plant.timezone }).startOf("day");
  if (!start.isValid || start.toMillis() > at) return null;
  const end = start.plus({ days: 1 }).toMillis() - 1;
  return plantEnergyTodayWh(plant, Math.min(at, end));
}

export function froniusSandbox(options: { now: () => number; faults?: SandboxFaults }) {
  const now = options.now;
  const app = new Hono<Env>();
  const plantsByKey = new Map<string, Map<string, SimPlant>>();
  const plantsOf = (account: FroniusAccount) => {
    let plants = plantsByKey.get(account.accessKeyId);
    if (!plants) {
      plants = new Map(froniusPlants(account.accessKeyId).map((plant) => [froniusGuid(plant.id), plant]));
      plantsByKey.set(account.accessKeyId, plants);
    }
    return plants;
  };

  // Standing faults: a rejected access key is Solar.web's 401 with responseError 1102.
  app.use(
    "*",
    vendorFaults(options.faults, "fronius", {
      refused: (c) => c.json({ responseError: 1102, responseMessage: "Access key is invalid." }, 401),
    }),
  );
  app.use("*", faults);
  app.use(
    "*",
    rateLimitFaults(options.faults, "fronius", (c) =>
      c.json({ responseError: 429, responseMessage: "Too many requests" }, 429, { "Retry-After": "1" }),
    ),
  );
  app.get("/info/release", (c) => c.json({ releaseVersion: "1.19.0", releaseDate: "2024-05-14" }));

  app.use("*", async (c, next) => {
    const account = sandboxAccounts.fronius.find(
      (candidate) =>
        candidate.accessKeyId === c.req.header("AccessKeyId") &&
        candidate.accessKeyValue === c.req.header("AccessKeyValue"),
    );
    if (!account) return c.json({ responseError: 1102, responseMessage: "Access key is invalid." }, 401);
    c.set("account", account);
    return next();
  });

  app.get("/pvsystems-list", (c) => {
    const ids = [...plantsOf(c.get("account")).keys()];
    const { offset, limit, links } = page(c, ids.length);
    return c.json({ pvSystemIds: ids.slice(offset, offset + limit), links });
  });

  app.get("/pvsystems", (c) => {
    const plants = [...plantsOf(c.get("account")).values()];
    const { offset, limit, links } = page(c, plants.length);
    return c.json({ pvSystems: plants.slice(offset, offset + limit).map(pvSystem), links });
  });

  const notFound = (c: Context) =>
    c.json({ responseError: 1404, responseMessage: "PV system not found or not accessible." }, 404);
  const plantFor = (c: Context<Env>) => plantsOf(c.get("account")).get(c.req.param("id") ?? "");

  app.get("/pvsystems/:id", (c) => {
    const plant = plantFor(c);
    return plant ? c.json(pvSystem(plant)) : notFound(c);
  });

  app.get("/pvsystems/:id/devices", (c) => {
    const plant = plantFor(c);
    if (!plant) return notFound(c);
    const list = devices(plant);
    return c.json({
      devices: list,
      links: {
        first: null,
        prev: null,
        self: c.req.url,
        next: null,
        last: null,
        totalItemsCount: list.length,
      },
    });
  });

  app.get("/pvsystems/:id/flowdata", (c) => {
    const plant = plantFor(c);
    if (!plant) return notFound(c);
    const at = dataTimeAt(now());
    const zulu = c.req.query("timezone") === "zulu";
    const logDateTime = zulu
      ? iso(at)
      : (DateTime.fromMillis(at, { zone: plant.timezone }).toISO({ suppressMilliseconds: true }) ?? "");
    const powerW = plantPowerW(plant, at);
    return c.json({
      pvSystemId: froniusGuid(plant.id),
      status: { isOnline: plantState(plant, at) !== "offline", battMode: null },
      data: {
        logDateTime,
        channels: [
          { channelName: "PowerPV", channelType: "Power", unit: "W", value: powerW },
          { channelName: "PowerOutput", channelType: "Power", unit: "W", value: powerW },
        ],
      },
    });
  });

  app.get("/pvsystems/:id/aggrdata", (c) => {
    const plant = plantFor(c);
    if (!plant) return notFound(c);
    const from = DateTime.fromISO(c.req.query("from") ?? "", { zone: "utc" });
    const to = DateTime.fromISO(c.req.query("to") ?? c.req.query("from") ?? "", { zone: "utc" });
    if (!from.isValid || !to.isValid || to < from || to.diff(from, "days").days > 31) {
      return c.json(
        { responseError: 1400, responseMessage: "Invalid from/to (YYYY-MM-DD, at most 31 days)." },
        400,
      );
    }
    const channels = (c.req.query("channel") ?? "EnergyProductionTotal").split(",");
    const at = now();
    const data = [];
    for (let day = from; day <= to; day = day.plus({ days: 1 })) {
      const date = day.toISODate() ?? "";
      const energy = dayEnergyWh(plant, date, at);
      if (energy === null) continue;
      data.push({
        logDateTime: date,
        channels: channels.includes("EnergyProductionTotal")
          ? [{ channelName: "EnergyProductionTotal", channelType: "Energy", unit: "Wh", value: energy }]
          : [],
      });
    }
    return c.json({
      pvSystemId: froniusGuid(plant.id),
      data,
      links: {
        first: null,
        prev: null,
        self: c.req.url,
        next: null,
        last: null,
        totalItemsCount: data.length,
      },
    });
  });

  // 5-minute buckets: EnergyProductionTotal in Wh per bucket, logDateTime
  // at the bucket's close in UTC, logDuration in seconds; at most a day (25 hours) per call. A
  // bucket's energy is the simulation's power at its start over 5 minutes, the same integral the
  // live energy-today counter sums.
  app.get("/pvsystems/:id/histdata", (c) => {
    const plant = plantFor(c);
    if (!plant) return notFound(c);
    const from = Date.parse(c.req.query("from") ?? "");
    const to = Date.parse(c.req.query("to") ?? "");
    if (Number.isNaN(from) || Number.isNaN(to) || to <= from || to - from > 25 * 3_600_000) {
      return c.json(
        { responseError: 1400, responseMessage: "Invalid from/to (ISO-8601, at most one day)." },
        400,
      );
    }
    const step = 5 * 60_000;
    const until = Math.min(to, now());
    const data = [];
    for (let t = Math.ceil(from / step) * step; t + step <= until; t += step) {
      const energy = Math.round(((plantPowerW(plant, t) * step) / 3_600_000) * 100) / 100;
      data.push({
        logDateTime: iso(t + step),
        logDuration: 300,
        channels: [
          { channelName: "EnergyProductionTotal", channelType: "Energy", unit: "Wh", value: energy },
        ],
      });
    }
    return c.json({
      pvSystemId: froniusGuid(plant.id),
      deviceId: null,
      data,
      links: {
        first: null,
        prev: null,
        self: c.req.url,
        next: null,
        last: null,
        totalItemsCount: data.length,
      },
      totalDataCount: data.length,
    });
  });

  // Shape unverified: stateType, stateCode, stateSeverity, logDateTime, text.
  // The emulator lists the messages of faults still going on.
  app.get("/pvsystems/:id/messages", (c) => {
    const plant = plantFor(c);
    if (!plant) return notFound(c);
    const at = now();
    const messages = plant.inverters.flatMap((_, index) => {
      const fault = activeFault(plant, index, at);
      if (!fault) return [];
      return [
        {
          stateType: "Error",
          stateCode: Number(fault.code),
          stateSeverity: "Error",
          logDateTime: iso(fault.startsAt),
          text: fault.message,
        },
      ];
    });
    return c.json({
      pvSystemId: froniusGuid(plant.id),
      messages,
      links: {
        first: null,
        prev: null,
        self: c.req.url,
        next: null,
        last: null,
        totalItemsCount: messages.length,
      },
    });
  });

  return app;
}
