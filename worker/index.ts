import { app } from "./app";
import { runScheduled } from "./cron";
import type { Env, SyncMessage } from "./env";
import { consumeSyncBatch } from "./sync";

export { FleetStore } from "./fleet/store";
export { VendorBudget } from "./providers/budget";
export { Throttle } from "./throttle/throttle";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller.cron, env, controller.scheduledTime));
  },
  async queue(batch, env, _ctx) {
    await consumeSyncBatch(batch, env);
  },
} satisfies ExportedHandler<Env, SyncMessage>;
