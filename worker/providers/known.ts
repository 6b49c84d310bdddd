import { z } from "zod";
import type { KnownInverter, KnownSystem, NormalisedInverter, SystemState } from "./types";

/** An inverter whose own values are not read: it follows its plant's state and data time. */
export function inverterFollowingPlant(
  inverter: KnownInverter,
  state: SystemState,
  dataTime: number | null,
): NormalisedInverter {
  return {
    ...inverter,
    state,
    powerW: null,
    energyTodayWh: null,
    energyTotalWh: null,
    temperatureC: null,
    dataTime,
  };
}

const liveCursorSchema = z.object({ offset: z.number().int().min(0) });

/**
 * A steady cycle's unit over the stored plants: `perUnit` of them from the cursor's offset, the
 * cursor of the next unit (null after the last) and how many units the run has.
 */
export function knownBatch(known: KnownSystem[], cursor: string | null, perUnit: number) {
  const { offset } = cursor === null ? { offset: 0 } : liveCursorSchema.parse(JSON.parse(cursor));
  const next = offset + perUnit;
  return {
    batch: known.slice(offset, next),
    nextCursor: next < known.length ? JSON.stringify({ offset: next }) : null,
    totalPages: Math.max(1, Math.ceil(known.length / perUnit)),
  };
}
