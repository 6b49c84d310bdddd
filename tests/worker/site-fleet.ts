import { env } from "cloudflare:workers";
import { createDb } from "../../worker/lib/db";
import type { NormalisedSystem } from "../../worker/providers/types";
import { storeSystemsPage } from "../../worker/sync/fleet-pages";
import { call, expectStatus, type TestUser } from "./helpers";

/*
 * An organisation of many sites made the way a sync makes them: pages of 100 SolisCloud plants
 * with coordinates go through the sync's page write (storeSystemsPage: D1 metadata, a site per new
 * plant while the organisation's setting is on, then the fleet store's points), as the vendor's
 * list would deliver them.
 */

const CITIES = [
  { name: "Amsterdam", latitude: 52.37, longitude: 4.9, timezone: "Europe/Amsterdam" },
  { name: "Lyon", latitude: 45.76, longitude: 4.84, timezone: "Europe/Paris" },
  { name: "Seville", latitude: 37.39, longitude: -5.98, timezone: "Europe/Madrid" },
  { name: "Brisbane", latitude: -27.47, longitude: 153.02, timezone: "Australia/Brisbane" },
  { name: "Phoenix", latitude: 33.45, longitude: -112.07, timezone: "America/Phoenix" },
] as const;

/** The i-th plant's vendor id and name ("Plant 00042 Lyon"). */
export const plantId = (i: number) => `SF${String(i).padStart(6, "0")}`;
export const plantName = (i: number) =>
  `Plant ${String(i).padStart(5, "0")} ${CITIES[i % CITIES.length]?.name ?? ""}`;

/**
 * The i-th plant at `time`: spread around its city; every 37th in alarm, every 11th silent for
 * two hours (offline in daylight), the others online with power that varies by plant.
 */
export function fleetPlant(i: number, time: number): NormalisedSystem {
  const city = CITIES[i % CITIES.length] ?? CITIES[0];
  const capacityW = 4000 + (i % 25) * 1000;
  const silent = i % 11 === 0;
  const dataTime = silent ? time - 2 * 3_600_000 : time;
  const powerW = Math.round(capacityW * (0.1 + ((i * 7919) % 90) / 100));
  return {
    providerSystemId: plantId(i),
    name: plantName(i),
    address: `${100 + (i % 900)} Solar Street, ${city.name}`,
    latitude: city.latitude + ((i % 97) - 48) * 0.01,
    longitude: city.longitude + ((Math.floor(i / 97) % 97) - 48) * 0.01,
    timezone: city.timezone,
    capacityW,
    state: i % 37 === 0 ? "alarm" : "online",
    powerW,
    energyTodayWh: powerW * 3,
    energyTotalWh: null,
    dataTime,
    inverters: [],
  };
}

/**
 * Sets the organisation's automatic sites (on unless `autoSites` is false), then stores `count`
 * plants in pages of 100: with it on each plant gets a site, with it off they stay available.
 */
export async function seedSiteFleet(
  owner: TestUser,
  count: number,
  { autoSites = true, time = Date.now() }: { autoSites?: boolean; time?: number } = {},
): Promise<void> {
  await expectStatus(
    await call("/api/organization/settings", {
      method: "PATCH",
      token: owner.token,
      body: { autoCreateSites: autoSites },
    }),
    200,
  );
  const db = createDb(env.DB);
  for (let first = 0; first < count; first += 100) {
    const systems = Array.from({ length: Math.min(100, count - first) }, (_, k) =>
      fleetPlant(first + k, time),
    );
    await storeSystemsPage(
      { db, env },
      { orgId: owner.orgId, provider: "solis", connectionId: null, now: time },
      { systems, alarms: null, publish: false },
    );
  }
}
