import { eq } from "drizzle-orm";
import { organizations } from "../../schema/tables";
import type { Db } from "../lib/db";

export const insertOrganization = (db: Db, org: typeof organizations.$inferInsert) =>
  db.insert(organizations).values(org);

export const findOrganization = (db: Db, orgId: string) =>
  db.query.organizations.findFirst({ where: eq(organizations.id, orgId) });
