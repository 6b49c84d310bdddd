import { refreshIrradiance } from "../engines/irradiance";
import type { Env } from "../env";
import { dispatchDueSyncs } from "./dispatch-syncs";
import { runMaintenance } from "./maintenance";
import { runNotifications } from "./notifications";

/** Cron strings in wrangler.toml, each dispatched to its jobs. */
export const FIVE_MINUTES = "*/5 * * * *";

export async function runScheduled(cron: string, env: Env, now: number): Promise<void> {
  switch (cron) {
    case FIVE_MINUTES:
      await dispatchDueSyncs({ env, now });
      await refreshIrradiance({ env, now });
      await runMaintenance({ env, now });
      await runNotifications({ env, now });
      return;
    default:
      console.warn(JSON.stringify({ msg: "unknown cron", cron }));
  }
}
