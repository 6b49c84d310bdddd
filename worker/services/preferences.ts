import {
  defaultPreferences,
  type Preferences,
  type PreferencesPatch,
  preferencesSchema,
} from "../../schema/api/preferences";
import { findPreferences, upsertPreferences } from "../data/preferences";
import { isKnownTimezone } from "../domain/timezones";
import { invalidField } from "../lib/errors";
import { auditEntry } from "./audit";
import { requireAction } from "./authorization";
import type { UserContext } from "./context";

export async function getPreferences(ctx: UserContext): Promise<Preferences> {
  const row = await findPreferences(ctx.db, ctx.user.id);
  if (!row) return defaultPreferences;
  // The row may predate a new language list; the schema keeps the answer within the contract.
  const parsed = preferencesSchema.safeParse(row);
  return parsed.success ? parsed.data : defaultPreferences;
}

export async function updatePreferences(ctx: UserContext, patch: PreferencesPatch): Promise<Preferences> {
  requireAction(ctx, "preferences:editOwn");
  // An empty change changes nothing, so nothing is written or audited.
  if (Object.keys(patch).length === 0) return getPreferences(ctx);
  if (patch.timezone !== undefined && !isKnownTimezone(patch.timezone)) {
    throw invalidField("timezone", `Unknown time zone: ${patch.timezone}`);
  }
  const next: Preferences = { ...(await getPreferences(ctx)), ...patch };
  await ctx.db.batch([
    upsertPreferences(ctx.db, ctx.user.id, next, ctx.now),
    auditEntry(ctx, {
      orgId: ctx.user.orgId,
      actorId: ctx.user.id,
      actorEmail: ctx.user.email,
      action: "preferences.update",
      targetType: "user",
      targetId: ctx.user.id,
      details: { changed: Object.keys(patch) },
    }),
  ]);
  return next;
}
