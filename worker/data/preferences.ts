import { eq } from "drizzle-orm";
import type { Preferences } from "../../schema/api/preferences";
import { userPreferences } from "../../schema/tables";
import type { Db } from "../lib/db";

export const findPreferences = (db: Db, userId: string) =>
  db.query.userPreferences.findFirst({ where: eq(userPreferences.userId, userId) });

export const upsertPreferences = (db: Db, userId: string, preferences: Preferences, now: number) =>
  db
    .insert(userPreferences)
    .values({ userId, ...preferences, updatedAt: now })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...preferences, updatedAt: now } });
