import { env } from "cloudflare:workers";
import type { ProviderId } from "../../../schema/api/providers";
import type { SystemPoint } from "../../../worker/fleet/types";
import { storeOf } from "../fleet-helpers";

/** An organisation row straight in D1 (no user: these tests call the store as the services do). */
export async function insertOrg(name = "Store Co"): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)")
    .bind(id, name, Date.now())
    .run();
  return id;
}

export interface SystemSeed {
  provider?: ProviderId;
  timezone?: string;
  latitude?: number | null;
  longitude?: number | null;
  capacityW?: number | null;
  inverters?: number;
}

/**
 * `count` systems of one organisation in D1 in one statement (ids `${orgId}-1` …, named
 * `${namePrefix}1` …), for fleet-size tests.
 */
export async function insertSystemsInBulk(
  orgId: string,
  count: number,
  now = Date.now(),
  namePrefix = "Plant ",
): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, capacity_w, state, timezone,
       created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     SELECT ? || '-' || i, ?, 'solis', 'P' || i, ? || i, 5000, 'online', 'UTC', ?, ? FROM n`,
  )
    .bind(count, orgId, orgId, namePrefix, now, now)
    .run();
}

/** A system (and its inverters) in D1, as a sync's metadata write leaves it. */
export async function insertSystem(orgId: string, seed: SystemSeed = {}) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO monitoring_systems (id, org_id, provider, provider_system_id, name, latitude, longitude, timezone,
       capacity_w, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'online', ?, ?)`,
  )
    .bind(
      id,
      orgId,
      seed.provider ?? "solis",
      `P-${id.slice(0, 8)}`,
      `Plant ${id.slice(0, 4)}`,
      seed.latitude ?? null,
      seed.longitude ?? null,
      seed.timezone ?? "UTC",
      seed.capacityW === undefined ? 10_000 : seed.capacityW,
      Date.now(),
      Date.now(),
    )
    .run();
  const inverterIds: string[] = [];
  for (let i = 0; i < (seed.inverters ?? 0); i++) {
    const inverterId = crypto.randomUUID();
    inverterIds.push(inverterId);
    await env.DB.prepare(
      `INSERT INTO inverters (id, org_id, system_id, provider_inverter_id, serial, state, updated_at)
       VALUES (?, ?, ?, ?, ?, 'online', ?)`,
    )
      .bind(inverterId, orgId, id, `INV-${i}`, `SN-${id.slice(0, 4)}-${i}`, Date.now())
      .run();
  }
  return { id, inverterIds };
}

/** A point of a system at `time`, with its inverters' share of the power. */
export function point(
  system: { id: string; inverterIds: string[] },
  time: number,
  powerW: number,
  energyTodayWh: number,
): SystemPoint {
  return {
    systemId: system.id,
    time,
    state: "online",
    powerW,
    energyTodayWh,
    energyTotalWh: null,
    inverters: system.inverterIds.map((inverterId) => ({
      inverterId,
      time,
      state: "online",
      powerW: powerW / system.inverterIds.length,
      energyTodayWh: energyTodayWh / system.inverterIds.length,
      temperatureC: 41.5,
    })),
  };
}

/** Stores points as a page through the store's own write path (after its directory mirrors D1). */
export async function storePoints(orgId: string, points: SystemPoint[]) {
  const store = storeOf(orgId);
  await store.ensureDirectory(orgId);
  return store.storePage(orgId, { directory: [], points, messages: [] });
}

/** The message a refused call rejects with; null when it answers (an RPC promise is awaited here, where it is handled). */
export async function refusal(call: () => Promise<unknown>): Promise<string | null> {
  try {
    await call();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
