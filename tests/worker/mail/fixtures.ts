import { env } from "cloudflare:workers";
import { runNotifications } from "../../../worker/cron/notifications";
import { insertSystem } from "../fleet/fleet-fixtures";
import { storeOf } from "../fleet-helpers";
import { call, expectStatus, type TestUser } from "../helpers";
import { MAIL_CATCHER } from "../mail-helpers";

/** The cron's notification job at an explicit instant. */
export const runMailAt = (now: number) => runNotifications({ env, now });

export async function setPreferences(user: TestUser, preferences: Record<string, unknown>) {
  await expectStatus(
    await call("/api/user/preferences", { method: "PATCH", token: user.token, body: preferences }),
    200,
  );
}

export async function preferencesOf(user: TestUser) {
  return expectStatus<{ realtimeAlerts: boolean; weeklyDigest: boolean; monthlyReports: boolean }>(
    await call("/api/user/preferences", { token: user.token }),
    200,
  );
}

/** Makes the catcher answer 500 to the next `count` sends. */
/** The catcher refuses the next `count` sends to `to` (per recipient: test files share the catcher). */
export async function failNextSends(to: string, count: number) {
  await fetch(`${MAIL_CATCHER}/fail-next?to=${encodeURIComponent(to)}&count=${count}`, { method: "POST" });
}

/** A site in Amsterdam (irradiance key 52.37,4.90) with one 10 kW system mirrored into the fleet store. */
export async function seedSite(orgId: string, name: string) {
  const siteId = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO sites (id, org_id, name, address, latitude, longitude, timezone, created_at, updated_at)
     VALUES (?, ?, ?, 'Dam 1, Amsterdam', 52.37, 4.9, 'Europe/Amsterdam', ?, ?)`,
  )
    .bind(siteId, orgId, name, now, now)
    .run();
  const system = await insertSystem(orgId, { latitude: 52.37, longitude: 4.9, capacityW: 10_000 });
  await env.DB.prepare("UPDATE monitoring_systems SET site_id = ? WHERE id = ?")
    .bind(siteId, system.id)
    .run();
  await storeOf(orgId).ensureDirectory(orgId);
  return { siteId, systemId: system.id };
}

export async function seedPortfolio(orgId: string, name: string, siteIds: string[]) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO portfolios (id, org_id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  )
    .bind(id, orgId, name, name.toLowerCase(), now, now)
    .run();
  for (const siteId of siteIds) {
    await env.DB.prepare(
      "INSERT INTO portfolio_sites (portfolio_id, site_id, org_id, added_at) VALUES (?, ?, ?, ?)",
    )
      .bind(id, siteId, orgId, now)
      .run();
  }
  return id;
}

/** Irradiance at 52.37,4.90: `ghi` W/m² from 07:00 to 17:00 UTC on each of the given June days. */
export async function seedIrradiance(days: number[], ghi: number) {
  const rows: string[] = [];
  for (const day of days) {
    for (let h = 0; h < 24; h++) {
      rows.push(`('52.37,4.90', ${Date.UTC(2026, 5, day, h)}, ${h >= 7 && h < 17 ? ghi : 0})`);
    }
  }
  await env.DB.prepare(
    `INSERT OR REPLACE INTO irradiance_hourly (location_key, hour_start, ghi_wm2) VALUES ${rows.join(", ")}`,
  ).run();
}

export async function insertAlert(
  orgId: string,
  systemId: string,
  alert: { createdAt: number; resolvedAt: number | null; lostWh: number | null },
) {
  await env.DB.prepare(
    `INSERT INTO alerts (id, org_id, system_id, title, message, severity, created_at, resolved, resolved_at, rule, lost_energy_wh)
     VALUES (?, ?, ?, 'No production', 'seeded', 'critical', ?, ?, ?, 'no_production', ?)`,
  )
    .bind(
      crypto.randomUUID(),
      orgId,
      systemId,
      alert.createdAt,
      alert.resolvedAt === null ? 0 : 1,
      alert.resolvedAt,
      alert.lostWh,
    )
    .run();
}
