import { sql } from "drizzle-orm";
import type { LearnedModel } from "../../domain/solar/expectation";
import type { FleetDb } from "../db";

/** What the listed systems' (D1 ids) own days taught the model, by system id; systems without any are absent. */
export function learnedModels(db: FleetDb, systemIds: string[]): Map<string, LearnedModel> {
  const rows = db.all<{ system_id: string; calibration: number; inferred_ac_limit_w: number | null }>(sql`
    SELECT s.system_id, m.calibration, m.inferred_ac_limit_w
    FROM system_models m JOIN systems s ON s.sys = m.sys
    WHERE s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`);
  return new Map(
    rows.map((r) => [r.system_id, { calibration: r.calibration, inferredAcLimitW: r.inferred_ac_limit_w }]),
  );
}

/** Each system's learned calibration (D1 ids), for read models over the whole fleet; systems without one are absent. */
export function calibrations(db: FleetDb, systemIds?: string[]): Map<string, number> {
  const listed =
    systemIds === undefined
      ? sql``
      : sql`WHERE s.system_id IN (SELECT value FROM json_each(${JSON.stringify(systemIds)}))`;
  const rows = db.all<{ system_id: string; calibration: number }>(sql`
    SELECT s.system_id, m.calibration FROM system_models m JOIN systems s ON s.sys = m.sys ${listed}`);
  return new Map(rows.map((r) => [r.system_id, r.calibration]));
}
