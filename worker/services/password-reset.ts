import type { PasswordResetBody, PasswordResetConfirm } from "../../schema/api/auth";
import { defaultPreferences } from "../../schema/api/preferences";
import type { Language } from "../../schema/domain";
import { consumePasswordReset, expireUserResets, insertPasswordReset } from "../data/password-resets";
import { findPreferences } from "../data/preferences";
import { deleteUserSessions } from "../data/sessions";
import { findUserByEmail, findUserById, updatePassword } from "../data/users";
import { invalidField } from "../lib/errors";
import { randomToken, sha256Hex } from "../lib/ids";
import { hashPassword, passwordIterations } from "../lib/password";
import { renderMail } from "../mail/layout";
import { mailMessages } from "../mail/messages";
import { deliverMail, queueMail } from "../mail/outbox";
import { settleAttempt, type ThrottleKey, takeAttempt } from "../throttle/attempts";
import { auditEntry } from "./audit";
import type { ServiceContext } from "./context";
import { provenAddressStatements } from "./email-verification";
import { closeSessionSockets } from "./sessions";

export const RESET_TTL_MS = 60 * 60_000;
const TOO_MANY = "Too many password reset requests. Try again later.";
const INVALID = "This reset link is invalid, has expired or has already been used";

/**
 * Sends a reset link when the address has an account. The answer is the same and as quick either
 * way, so the endpoint does not tell who has an account: past the throttle, looking the address
 * up, storing the link and its mail (the outbox) and sending it all happen after the answer, in
 * the request's waitUntil (before returning where there is none).
 */
export async function requestPasswordReset(ctx: ServiceContext, body: PasswordResetBody): Promise<void> {
  await takeAttempt(
    ctx.env,
    [
      { name: "resetEmail", subject: body.email },
      ...(ctx.ip ? [{ name: "resetIp" as const, subject: ctx.ip }] : []),
    ],
    ctx.now,
    TOO_MANY,
  );
  const work = mailResetLink(ctx, body.email);
  if (!ctx.waitUntil) return work;
  ctx.waitUntil(
    work.catch((error: unknown) => {
      // No address in the log: it would say who asked.
      console.error(JSON.stringify({ msg: "password reset request failed", error: String(error) }));
    }),
  );
}

/** The link and its mail for an address that has an account; nothing for one that has none. */
async function mailResetLink(ctx: ServiceContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = randomToken();
  const language: Language =
    ((await findPreferences(ctx.db, user.id))?.language as Language | undefined) ??
    defaultPreferences.language;
  const words = mailMessages[language];
  const link = `${ctx.origin}/reset-password?token=${encodeURIComponent(token)}`;
  const content = renderMail(language, words.resetSubject, {
    paragraphs: [words.resetIntro, words.resetExpiry],
    action: { label: words.resetAction, url: link },
  });
  const mail = queueMail(
    ctx.db,
    {
      kind: "password_reset",
      orgId: user.orgId,
      userId: user.id,
      to: [user.email],
      subject: words.resetSubject,
      ...content,
    },
    ctx.now,
  );
  await ctx.db.batch([
    expireUserResets(ctx.db, user.id, ctx.now),
    insertPasswordReset(ctx.db, {
      tokenHash: await sha256Hex(token),
      userId: user.id,
      createdAt: ctx.now,
      expiresAt: ctx.now + RESET_TTL_MS,
    }),
    mail.insert,
    auditEntry(ctx, {
      orgId: user.orgId,
      actorId: user.id,
      actorEmail: user.email,
      action: "auth.password_reset_request",
      targetType: "user",
      targetId: user.id,
    }),
  ]);
  await deliverMail(ctx.env, ctx.db, [mail.id], ctx.now);
}

/**
 * Sets the password a valid link was sent for, uses the link up and ends every session of the
 * user. The link reached the address, so the address counts as verified from now on.
 */
export async function confirmPasswordReset(ctx: ServiceContext, body: PasswordResetConfirm): Promise<void> {
  const tokenHash = await sha256Hex(body.token);
  const keys: ThrottleKey[] = ctx.ip ? [{ name: "resetIp", subject: ctx.ip }] : [];
  await takeAttempt(ctx.env, keys, ctx.now, TOO_MANY);
  const password = await hashPassword(body.password, passwordIterations(ctx.env));
  const [consumed] = await consumePasswordReset(ctx.db, tokenHash, ctx.now);
  if (!consumed) throw invalidField("token", INVALID);
  const [, ended] = await ctx.db.batch([
    updatePassword(ctx.db, consumed.userId, password),
    deleteUserSessions(ctx.db, consumed.userId, null),
    ...provenAddressStatements(ctx.db, consumed.userId, ctx.now),
  ]);
  const user = await findUserById(ctx.db, consumed.userId);
  await auditEntry(ctx, {
    orgId: user?.orgId ?? null,
    actorId: consumed.userId,
    actorEmail: user?.email ?? null,
    action: "auth.password_reset",
    targetType: "user",
    targetId: consumed.userId,
  });
  await settleAttempt(ctx.env, keys, "forgive");
  await closeSessionSockets(
    ctx.env,
    user?.orgId ?? null,
    ended.map((s) => s.id),
  );
}
