import { eq } from "drizzle-orm";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import { userPreferences } from "../../schema/tables";
import type { Db } from "../lib/db";

export const findPreferences = (db: Db, userId: string) =>
  db.query.userPreferences.findFirst({ where: eq(userPreferences.userId, userId) });

export const upsertPreferences = (db: Db, userId: string, preferences: Preferences, now: number) =>
  db
    .insert(userPreferences)
    .values({ userId, ...preferences, updatedAt: now })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...preferences, updatedAt: now } });

/** Switches one mail preference off, keeping the others (defaults when the user has no row yet). */
export const switchMailPreferenceOff = (
  db: Db,
  userId: string,
  topic: "realtimeAlerts" | "weeklyDigest" | "monthlyReports",
  now: number,
) =>
  db
    .insert(userPreferences)
    .values({ userId, ...defaultPreferences, [topic]: false, updatedAt: now })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { [topic]: false, updatedAt: now } });
