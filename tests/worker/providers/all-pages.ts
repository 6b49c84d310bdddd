import type { ProviderAdapter, ProviderCallContext, ProviderSnapshot } from "../../../worker/providers/types";

/** A whole account as the sync reads it: every unit of `adapter.syncPage`, one after the other. */
export async function readAllPages<C>(
  adapter: ProviderAdapter<C>,
  ctx: ProviderCallContext,
  credentials: C,
): Promise<ProviderSnapshot> {
  const snapshot: ProviderSnapshot = { systems: [], alarms: null };
  let cursor: string | null = null;
  do {
    const page = await adapter.syncPage(ctx, credentials, cursor);
    snapshot.systems.push(...page.systems);
    if (page.alarms) snapshot.alarms = [...(snapshot.alarms ?? []), ...page.alarms];
    cursor = page.nextCursor;
  } while (cursor !== null);
  return snapshot;
}
