import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import * as tables from "../../schema/fleet-tables";
import migrations from "./migrations/migrations.js";

export const createFleetDb = (storage: DurableObjectStorage) => drizzle(storage, { schema: tables });
export type FleetDb = ReturnType<typeof createFleetDb>;

/** Applies the store's drizzle-kit migrations (bundled with the worker) that this object has not run. */
export function migrateFleetDb(db: FleetDb): Promise<void> {
  return migrate(db, migrations);
}
