import type { LiveMessage } from "../../schema/live";
import type { LearnedModel } from "../domain/solar/expectation";
import { type DetectionRun, detectAlerts } from "../engines/detection";
import type { Env } from "../env";
import { createDb } from "../lib/db";
import type { DetectionSystem } from "./types";

/** What scheduled detection needs of the store: its systems' recent points and learned models, and its sockets. */
export interface DetectionSources {
  detectionInput(systemIds: string[] | null, fromMs: number, toMs: number): Promise<DetectionSystem[]>;
  learnedModels(systemIds: string[]): Promise<(LearnedModel & { systemId: string })[]>;
  publish(messages: LiveMessage[]): Promise<number>;
}

/**
 * Fault detection over every system of the store's organisation at `now`: the same evaluation
 * as after a stored page (worker/engines/detection.ts), reading its input from this store rather
 * than over RPC. D1 is asked for the organisation's rules, open alerts and irradiance only; a
 * failure is logged, never thrown (the alarm's other work stands).
 */
export async function detectInStore(
  env: Env,
  orgId: string,
  sources: DetectionSources,
  now: number,
): Promise<DetectionRun | null> {
  try {
    return await detectAlerts(
      {
        db: createDb(env.DB),
        env,
        fleet: {
          detectionInput: sources.detectionInput,
          learnedModels: sources.learnedModels,
          publish: sources.publish,
        },
      },
      orgId,
      { now },
    );
  } catch (error) {
    console.error(JSON.stringify({ msg: "scheduled detection failed", orgId, error: String(error) }));
    return null;
  }
}
