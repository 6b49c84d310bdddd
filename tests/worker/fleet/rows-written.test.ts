import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { storeOf } from "../fleet-helpers";
import { insertOrg, insertSystem, point } from "./fleet-fixtures";

const STEP = 300_000;

const ZONE = "Europe/Amsterdam";

/**
 * One local day of a plant in Amsterdam as a live sync stores it: 288 pages of one point each (the
 * system and its two inverters), through the store's page write, power rising to 8 kW at noon and
 * the energy-today counter (reset at local midnight) following it. The days are ahead of the
 * clock, so each point arrives while its hour is still open, as a live point does; the next day's
 * first point closes the day's last hour.
 */
async function storeDay(orgId: string, system: { id: string; inverterIds: string[] }, date: string) {
  const store = storeOf(orgId);
  const dayStart = DateTime.fromISO(date, { zone: ZONE }).toMillis();
  let rowsWritten = 0;
  let energyWh = 0;
  for (let step = 0; step < 288; step++) {
    const powerW = Math.round(8000 * Math.max(0, 1 - Math.abs(step - 144) / 72));
    energyWh += powerW / 12;
    const stored = await store.storePage(orgId, {
      directory: [],
      points: [point(system, dayStart + step * STEP, powerW, Math.round(energyWh))],
      messages: [],
    });
    rowsWritten += stored.rowsWritten;
  }
  return rowsWritten;
}

describe("rows written per system-day", () => {
  it("stores a system-day with two inverters in at most 400 rows", async () => {
    const orgId = await insertOrg();
    const system = await insertSystem(orgId, { inverters: 2, timezone: ZONE });
    await storeOf(orgId).ensureDirectory(orgId);
    const first = DateTime.now().setZone(ZONE).plus({ days: 2 }).startOf("day");
    const days = [
      await storeDay(orgId, system, first.toISODate() ?? ""),
      await storeDay(orgId, system, first.plus({ days: 1 }).toISODate() ?? ""),
    ];
    console.log(`rows written per system-day (system + 2 inverters, 288 points): ${days.join(", ")}`);
    for (const rows of days) expect(rows).toBeLessThanOrEqual(400);
  }, 120_000);
});
