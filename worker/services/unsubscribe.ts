import { defaultPreferences } from "../../schema/api/preferences";
import type { Language } from "../../schema/domain";
import { findRecipient } from "../data/notification-mail";
import { switchMailPreferenceOff } from "../data/preferences";
import { runBatch } from "../lib/db";
import { type MailTopic, verifyUnsubscribeToken } from "../lib/unsubscribe-token";
import { auditEntry } from "./audit";
import type { ServiceContext } from "./context";

export type UnsubscribeOutcome =
  | { state: "invalid"; language: Language }
  | { state: "ask" | "done"; language: Language; email: string; topic: MailTopic };

/** Who and what a link's token names, or `invalid` (bad signature, expired, user gone). */
async function resolveToken(ctx: ServiceContext, token: string) {
  const claims = await verifyUnsubscribeToken(token, ctx.env.JWT_SECRET, ctx.now);
  const recipient = claims ? await findRecipient(ctx.db, claims.userId) : null;
  return claims && recipient ? { claims, recipient } : null;
}

/** What the link's page asks: nothing changes until the member confirms. */
export async function describeUnsubscribe(ctx: ServiceContext, token: string): Promise<UnsubscribeOutcome> {
  const resolved = await resolveToken(ctx, token);
  if (!resolved) return { state: "invalid", language: defaultPreferences.language };
  const { recipient, claims } = resolved;
  return { state: "ask", language: recipient.language, email: recipient.email, topic: claims.topic };
}

/** Switches the link's preference off for its user, without a session (the token is the proof). */
export async function confirmUnsubscribe(ctx: ServiceContext, token: string): Promise<UnsubscribeOutcome> {
  const resolved = await resolveToken(ctx, token);
  if (!resolved) return { state: "invalid", language: defaultPreferences.language };
  const { recipient, claims } = resolved;
  await runBatch(ctx.db, [
    switchMailPreferenceOff(ctx.db, recipient.id, claims.topic, ctx.now),
    auditEntry(ctx, {
      orgId: recipient.orgId,
      actorId: recipient.id,
      actorEmail: recipient.email,
      action: "preferences.unsubscribe",
      targetType: "user",
      targetId: recipient.id,
      details: { topic: claims.topic },
    }),
  ]);
  return { state: "done", language: recipient.language, email: recipient.email, topic: claims.topic };
}
