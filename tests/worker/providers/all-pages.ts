import type {
  KnownSystem,
  NormalisedSystem,
  ProviderAdapter,
  ProviderCallContext,
  ProviderSnapshot,
} from "../../../worker/providers/types";

/** More units than any test account needs (the 20,000-station list is ~700 units). */
const MAX_UNITS = 5_000;

/**
 * A whole account as the sync reads it: every unit of `adapter.syncPage`, one after the other;
 * reading the vendor's lists unless `known` hands in the plants a steady cycle reads.
 */
export async function readAllPages<C>(
  adapter: ProviderAdapter<C>,
  ctx: ProviderCallContext,
  credentials: C,
  known: KnownSystem[] | null = null,
): Promise<ProviderSnapshot> {
  const snapshot: ProviderSnapshot = { systems: [], alarms: null };
  let cursor: string | null = null;
  let units = 0;
  do {
    // An adapter whose cursor never ends would otherwise hang the test file without a timeout.
    if (++units > MAX_UNITS) throw new Error(`${adapter.id}: the run did not end within ${MAX_UNITS} units`);
    const page = await adapter.syncPage(ctx, credentials, cursor, known);
    snapshot.systems.push(...page.systems);
    if (page.alarms) snapshot.alarms = [...(snapshot.alarms ?? []), ...page.alarms];
    cursor = page.nextCursor;
  } while (cursor !== null);
  return snapshot;
}

/** A system as a read of the lists stored it: what a steady cycle is handed. */
export function asKnown(system: NormalisedSystem): KnownSystem {
  return {
    providerSystemId: system.providerSystemId,
    name: system.name,
    address: system.address,
    latitude: system.latitude,
    longitude: system.longitude,
    timezone: system.timezone,
    capacityW: system.capacityW,
    providerGroup: system.providerGroup ?? null,
    inverters: system.inverters.map(({ providerInverterId, serial, model, ratedPowerW }) => ({
      providerInverterId,
      serial,
      model,
      ratedPowerW,
    })),
  };
}
