import { listModelInputs } from "../data/model-inputs";
import { type LearnedModel, pvSystemOf } from "../domain/solar/expectation";
import type { PvSystem } from "../domain/solar/pv-model";
import { fleetStoreOf } from "../lib/fleet-store";
import type { OrgContext } from "./context";

export interface ExpectedSystem {
  systemId: string;
  locationKey: string | null;
  /** Null without a capacity or a place. */
  model: PvSystem | null;
}

/**
 * The expected-power model of each listed system (every system of the organisation when null):
 * D1's capacity, place and orientation, with what the fleet store learned of each from its days.
 */
export async function expectedSystems(
  org: OrgContext,
  systemIds: string[] | null,
): Promise<ExpectedSystem[]> {
  const inputs = await listModelInputs(org.db, org.user.orgId, systemIds);
  if (inputs.length === 0) return [];
  const learned = new Map<string, LearnedModel>();
  const rows = await fleetStoreOf(org).learnedModels(
    org.user.orgId,
    inputs.map((input) => input.systemId),
  );
  for (const row of rows) {
    learned.set(row.systemId, { calibration: row.calibration, inferredAcLimitW: row.inferredAcLimitW });
  }
  return inputs.map((input) => ({
    systemId: input.systemId,
    locationKey: input.locationKey,
    model: pvSystemOf(input, learned.get(input.systemId) ?? null),
  }));
}
