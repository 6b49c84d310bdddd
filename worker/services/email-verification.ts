import type { ResendVerificationResponse } from "../../schema/api/auth";
import { defaultPreferences } from "../../schema/api/preferences";
import type { Language } from "../../schema/domain";
import {
  consumeEmailVerification,
  deleteUserEmailVerifications,
  type EmailVerificationRow,
  insertEmailVerification,
  insertEmailVerificationWithin,
  listRecentEmailVerifications,
} from "../data/email-verifications";
import { deleteOrganizationWithoutMembers } from "../data/organizations";
import { findPreferences } from "../data/preferences";
import {
  deleteUnverifiedUser,
  findUserById,
  listUnverifiedToRemind,
  listUnverifiedToRemove,
  markEmailVerified,
  markVerificationReminded,
  userGone,
} from "../data/users";
import type { Env } from "../env";
import { createDb, type Db } from "../lib/db";
import { ApiError, invalidField, notAuthenticated, tooManyRequests } from "../lib/errors";
import { fleetStoreFor } from "../lib/fleet-store";
import { randomToken, sha256Hex } from "../lib/ids";
import { renderMail } from "../mail/layout";
import { mailOrigin } from "../mail/links";
import { mailMessages } from "../mail/messages";
import { deliverMail, queueMail } from "../mail/outbox";
import { auditEntry, auditEntryIf } from "./audit";
import type { CurrentUser, ServiceContext, UserContext } from "./context";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A verification link works once, for 48 hours. */
export const VERIFICATION_TTL_MS = 48 * HOUR_MS;
/** A never-verified account is reminded 5 days after sign-up and removed after 7. */
export const UNVERIFIED_REMINDER_AFTER_MS = 5 * DAY_MS;
export const UNVERIFIED_REMOVAL_AFTER_MS = 7 * DAY_MS;
/** The reminder always comes this long before the removal, even when maintenance reaches an account late. */
export const REMOVAL_NOTICE_MS = 2 * DAY_MS;
/** Bounds of one maintenance pass: each removal may take a whole organisation with it. */
export const REMINDERS_PER_PASS = 50;
export const REMOVALS_PER_PASS = 25;
/** "Send again": one link a minute, five a day (the sign-up's counts), so nobody's inbox is flooded. */
export const RESEND_LIMITS = { minGapMs: MINUTE_MS, windowMs: DAY_MS, maxInWindow: 5 } as const;

export const VERIFICATION_MAIL_KIND = "email_verification";
export const REMINDER_MAIL_KIND = "email_verification_reminder";

const INVALID = "This verification link is invalid, has expired or has already been used";

interface Recipient {
  id: string;
  email: string;
  orgId: string | null;
}

async function languageOf(db: Db, userId: string): Promise<Language> {
  return (
    ((await findPreferences(db, userId))?.language as Language | undefined) ?? defaultPreferences.language
  );
}

/** A new link for the user (its row, stored by hash) and the mail carrying it, both still to be written. */
async function newVerification(
  ctx: { db: Db; now: number; origin: string },
  user: Recipient,
  kind: typeof VERIFICATION_MAIL_KIND | typeof REMINDER_MAIL_KIND,
) {
  const token = randomToken();
  const row: EmailVerificationRow = {
    tokenHash: await sha256Hex(token),
    userId: user.id,
    createdAt: ctx.now,
    expiresAt: ctx.now + VERIFICATION_TTL_MS,
  };
  const language = await languageOf(ctx.db, user.id);
  const words = mailMessages[language];
  const subject = kind === REMINDER_MAIL_KIND ? words.verifyReminderSubject : words.verifySubject;
  const content = renderMail(language, subject, {
    paragraphs:
      kind === REMINDER_MAIL_KIND
        ? [words.verifyReminderIntro, words.verifyExpiry]
        : [words.verifyIntro, words.verifyExpiry],
    action: {
      label: words.verifyAction,
      url: `${ctx.origin}/verify-email?token=${encodeURIComponent(token)}`,
    },
  });
  const mail = queueMail(
    ctx.db,
    { kind, orgId: user.orgId, userId: user.id, to: [user.email], subject, ...content },
    ctx.now,
  );
  return { row, mail };
}

/** The sign-up's link and mail, to be batched with the new account; deliver `mailId` after the batch. */
export async function signupVerification(ctx: ServiceContext, user: Recipient) {
  const { row, mail } = await newVerification(ctx, user, VERIFICATION_MAIL_KIND);
  return { statements: [insertEmailVerification(ctx.db, row), mail.insert] as const, mailId: mail.id };
}

/**
 * Uses a link up: every link of its account stops working and the address counts as verified.
 * Answers the account's id, or refuses an unknown, used or expired link with 400.
 */
export async function consumeVerificationLink(ctx: ServiceContext, token: string) {
  const [consumed] = await consumeEmailVerification(ctx.db, await sha256Hex(token), ctx.now);
  if (!consumed) throw invalidField("token", INVALID);
  return {
    userId: consumed.userId,
    statements: [
      markEmailVerified(ctx.db, consumed.userId, ctx.now),
      deleteUserEmailVerifications(ctx.db, consumed.userId),
    ] as const,
  };
}

/** What a password reset or an accepted invite batches: the address is proven, the links are done with. */
export const provenAddressStatements = (db: Db, userId: string, now: number) =>
  [markEmailVerified(db, userId, now), deleteUserEmailVerifications(db, userId)] as const;

/**
 * Refuses callers whose address was never verified (403 `email_not_verified`): creating API keys
 * and inviting need a proven address, so an address someone merely typed in grants neither.
 */
export async function requireVerifiedEmail(ctx: ServiceContext & { user: CurrentUser }): Promise<void> {
  const stored = await findUserById(ctx.db, ctx.user.id);
  if (stored && stored.emailVerifiedAt !== null) return;
  throw new ApiError({
    code: "email_not_verified",
    message: "Confirm your e-mail address first: follow the link we sent to it",
  });
}

/** Seconds until "send again" may send, from the links sent in the last day (newest first). */
function resendWaitSeconds(recent: { createdAt: number }[], now: number): number {
  const newest = recent[0]?.createdAt;
  const oldestCounted = recent[RESEND_LIMITS.maxInWindow - 1]?.createdAt;
  const waits = [
    newest === undefined ? 0 : newest + RESEND_LIMITS.minGapMs - now,
    oldestCounted === undefined ? 0 : oldestCounted + RESEND_LIMITS.windowMs - now,
  ];
  return Math.max(1, Math.ceil(Math.max(...waits) / 1000));
}

/**
 * "Send again": a new link to the signed-in account's address, within RESEND_LIMITS (429 with
 * Retry-After beyond). Earlier links keep working until they expire or one is used.
 */
export async function resendVerification(ctx: UserContext): Promise<ResendVerificationResponse> {
  const stored = await findUserById(ctx.db, ctx.user.id);
  if (!stored) throw notAuthenticated();
  if (stored.emailVerifiedAt !== null) return { sent: false, message: "This address is already verified" };
  const { row, mail } = await newVerification(ctx, stored, VERIFICATION_MAIL_KIND);
  const inserted = await insertEmailVerificationWithin(ctx.db, row, RESEND_LIMITS);
  if (inserted.meta.changes === 0) {
    const recent = await listRecentEmailVerifications(ctx.db, stored.id, ctx.now - RESEND_LIMITS.windowMs);
    throw tooManyRequests(
      "A verification link was sent a moment ago. Try again later.",
      resendWaitSeconds(recent, ctx.now),
    );
  }
  await ctx.db.batch([
    mail.insert,
    auditEntry(ctx, {
      orgId: stored.orgId,
      actorId: stored.id,
      actorEmail: stored.email,
      action: "auth.email_verification_send",
      targetType: "user",
      targetId: stored.id,
    }),
  ]);
  await deliverMail(ctx.env, ctx.db, [mail.id], ctx.now);
  return { sent: true, message: `A new verification link is on its way to ${stored.email}` };
}

/**
 * The fleet store of an organisation a never-verified account left: its sockets for the user close,
 * and, when the organisation was deleted with systems, its directory empties so its schedule stops.
 */
export async function leaveFleetStore(
  env: Env,
  orgId: string,
  userId: string,
  deletedWithSystems: boolean,
): Promise<void> {
  const store = fleetStoreFor(env, orgId);
  await store.disconnectUser(orgId, userId);
  if (deletedWithSystems) await store.ensureDirectory(orgId);
}

/**
 * Maintenance: never-verified accounts get a reminder with a new link 5 days after sign-up, and
 * are removed 7 days after sign-up once the reminder is at least 2 days old; an organisation
 * nobody else belongs to goes with its account (D1 cascades its rows). Bounded per pass.
 */
export async function remindOrRemoveUnverifiedAccounts({ env, now }: { env: Env; now: number }) {
  const db = createDb(env.DB);
  const ctx: ServiceContext = { db, env, now, ip: null, origin: mailOrigin(env) };

  const due = await listUnverifiedToRemind(db, now - UNVERIFIED_REMINDER_AFTER_MS, REMINDERS_PER_PASS);
  const mailIds: string[] = [];
  for (const user of due) {
    const { row, mail } = await newVerification(ctx, user, REMINDER_MAIL_KIND);
    await db.batch([
      markVerificationReminded(db, user.id, now),
      insertEmailVerification(db, row),
      mail.insert,
    ]);
    mailIds.push(mail.id);
  }
  await deliverMail(env, db, mailIds, now);

  const expired = await listUnverifiedToRemove(
    db,
    now - UNVERIFIED_REMOVAL_AFTER_MS,
    now - REMOVAL_NOTICE_MS,
    REMOVALS_PER_PASS,
  );
  let removed = 0;
  let organizationsRemoved = 0;
  for (const user of expired) {
    const [gone, orgGone] = await db.batch([
      deleteUnverifiedUser(db, user.id),
      // Nothing when the account was verified meanwhile (it is still a member) or others belong to it.
      deleteOrganizationWithoutMembers(db, user.orgId ?? ""),
      auditEntryIf(
        ctx,
        {
          orgId: user.orgId,
          actorId: null,
          actorEmail: null,
          action: "auth.unverified_account_remove",
          targetType: "user",
          targetId: user.id,
          details: { email: user.email },
        },
        userGone(user.id),
      ),
    ]);
    if (gone.meta.changes === 0) continue;
    removed++;
    if (orgGone.meta.changes > 0) organizationsRemoved++;
    if (user.orgId)
      await leaveFleetStore(env, user.orgId, user.id, orgGone.meta.changes > 0 && user.orgHasSystems === 1);
  }
  return { remindersSent: due.length, unverifiedAccountsRemoved: removed, organizationsRemoved };
}
