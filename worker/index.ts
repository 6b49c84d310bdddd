import { app } from "./app";
import { runScheduled } from "./cron";
import type { Env } from "./env";

export { LiveHub } from "./realtime/live-hub";

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(controller.cron, env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
