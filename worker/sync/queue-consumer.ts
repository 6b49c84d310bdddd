import type { Env, SyncMessage } from "../env";
import { createDb } from "../lib/db";
import { syncConnection } from "./sync-connection";

/** Each message is one connection's scheduled sync; outcomes are recorded by the sync itself. */
export async function consumeSyncBatch(batch: MessageBatch<SyncMessage>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    await syncConnection({ db, env, now: () => Date.now() }, message.body.connectionId, "cron");
    message.ack();
  }
}
