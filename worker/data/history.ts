import { and, eq } from "drizzle-orm";
import { monitoringSystems } from "../../schema/tables";
import type { Db } from "../lib/db";

/** The systems one connection brought in, by D1 id and the vendor's id: what a backfill covers. */
export const listConnectionSystems = (db: Db, orgId: string, connectionId: string) =>
  db
    .select({ id: monitoringSystems.id, providerSystemId: monitoringSystems.providerSystemId })
    .from(monitoringSystems)
    .where(and(eq(monitoringSystems.orgId, orgId), eq(monitoringSystems.connectionId, connectionId)))
    .orderBy(monitoringSystems.providerSystemId);
