import { and, count, eq, gte, lt, min } from "drizzle-orm";
import { loginFailures } from "../../schema/tables";
import type { Db } from "../lib/db";

export async function failuresSince(db: Db, email: string, since: number) {
  const [row] = await db
    .select({ failures: count(), oldest: min(loginFailures.failedAt) })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), gte(loginFailures.failedAt, since)));
  return { failures: row?.failures ?? 0, oldest: row?.oldest ?? null };
}

export const recordLoginFailure = (db: Db, email: string, now: number) =>
  db.insert(loginFailures).values({ email, failedAt: now });

export const clearLoginFailures = (db: Db, email: string) =>
  db.delete(loginFailures).where(eq(loginFailures.email, email));

export const deleteLoginFailuresBefore = (db: Db, before: number) =>
  db.delete(loginFailures).where(lt(loginFailures.failedAt, before));
