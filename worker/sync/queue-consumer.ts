import type { Env, SyncMessage } from "../env";
import { createDb } from "../lib/db";
import { driveRun, INVOCATION_WORK_MS, type SyncDeps, startRun } from "./run";

/**
 * A message starts a connection's scheduled run (nothing happens if one is going) or carries a
 * run's next unit. Either way this invocation works on the run for INVOCATION_WORK_MS at most
 * and leaves the rest to the next message. A message is acknowledged once its unit committed;
 * one whose invocation is killed is delivered again and resumes from the run's last commit.
 */
export async function consumeSyncBatch(batch: MessageBatch<SyncMessage>, env: Env): Promise<void> {
  const deps: SyncDeps = { db: createDb(env.DB), env, now: () => Date.now() };
  for (const message of batch.messages) {
    await consumeSyncMessage(deps, message.body);
    message.ack();
  }
}

export async function consumeSyncMessage(deps: SyncDeps, body: SyncMessage): Promise<void> {
  const workUntil = deps.now() + INVOCATION_WORK_MS;
  if (body.kind === "start") {
    const started = await startRun(deps, body.connectionId, "cron");
    if (started.status === "started") await driveRun(deps, started.runId, 0, workUntil);
    return;
  }
  await driveRun(deps, body.runId, body.unit, workUntil, body.kind);
}
