import type {
  AuthResponse,
  AuthUser,
  ChangePasswordBody,
  LoginBody,
  Profile,
  RegisterBody,
  SignupResponse,
} from "../../schema/api/auth";
import type { InviteRow, UserRow, users } from "../../schema/tables";

type NewUser = typeof users.$inferInsert;

import { deleteUserEmailVerifications } from "../data/email-verifications";
import {
  findInviteByTokenHash,
  insertUserFromInvite,
  joinOrgThroughInvite,
  markInviteAccepted,
  takeOverThroughInvite,
} from "../data/invites";
import {
  deleteOrganizationWithoutMembers,
  findOrganization,
  insertOrganization,
  organizationHasSystems,
} from "../data/organizations";
import { deleteUserSessions, insertSessionIf } from "../data/sessions";
import {
  attachUserToOrg,
  findUserByEmail,
  findUserById,
  findUserWithOrg,
  insertUser,
  updatePassword,
  userExists,
  userInOrg,
} from "../data/users";
import { type BatchStatement, runBatch } from "../lib/db";
import { ApiError, conflict, invalidField, notAuthenticated } from "../lib/errors";
import { newId, sha256Hex } from "../lib/ids";
import { dummyPasswordHash, hashPassword, passwordIterations, verifyPassword } from "../lib/password";
import { deliverMail } from "../mail/outbox";
import { settleAttempt, type ThrottleKey, takeAttempt } from "../throttle/attempts";
import { auditEntry, auditEntryIf } from "./audit";
import type { CurrentUser, ServiceContext, UserContext } from "./context";
import { consumeVerificationLink, leaveFleetStore, signupVerification } from "./email-verification";
import { closeSessionSockets, currentSessionId, newSession } from "./sessions";

const INVALID_INVITE = "This invite link is invalid, has expired or has already been used";
const TOO_MANY_SIGN_INS = "Too many failed sign-in attempts. Try again later.";
const TOO_MANY_ATTEMPTS = "Too many attempts. Try again later.";

const toAuthUser = (user: CurrentUser): AuthUser => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  companyId: user.orgId,
  user_metadata: { companyName: user.orgName },
});

/** The caller as the profile shows them: with whether their address was ever verified. */
type ProfileUser = CurrentUser & { emailVerifiedAt: number | null };

const toProfile = (user: ProfileUser): Profile => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  companyName: user.orgName,
  companyId: user.orgId,
  // A platform superAdmin works across organisations and never needs to create one.
  onboardingRequired: user.orgId === null && user.role !== "superAdmin",
  permissions: user.permissions,
  emailVerified: user.emailVerifiedAt !== null,
});

export async function loadCurrentUser(ctx: ServiceContext, userId: string): Promise<ProfileUser | null> {
  const row = await findUserWithOrg(ctx.db, userId);
  if (!row) return null;
  return { ...row, orgName: row.orgName ?? null };
}

/** The signed-in caller's profile, re-read with their verification state. */
export async function profileOf(ctx: UserContext): Promise<Profile> {
  const current = await loadCurrentUser(ctx, ctx.user.id);
  if (!current) throw notAuthenticated();
  return toProfile(current);
}

const invalidInvite = () => invalidField("inviteToken", INVALID_INVITE);

async function usableInvite(ctx: ServiceContext, token: string, email: string): Promise<InviteRow> {
  const invite = await findInviteByTokenHash(ctx.db, await sha256Hex(token));
  if (!invite || invite.acceptedAt !== null || invite.expiresAt <= ctx.now) throw invalidInvite();
  if (invite.email !== email) {
    throw invalidField("email", "This invite was sent to a different email address");
  }
  return invite;
}

/** D1 reports the unique-email index on a concurrent duplicate registration this way. */
const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed/i.test(error.message);

const ipKey = (ctx: ServiceContext, name: ThrottleKey["name"]): ThrottleKey[] =>
  ctx.ip ? [{ name, subject: ctx.ip }] : [];

/**
 * Sign-up without an invite founds an organisation and mails a link that verifies the address;
 * with one, joins the inviting organisation.
 */
export async function register(ctx: ServiceContext, body: RegisterBody): Promise<AuthResponse> {
  if (body.inviteToken) return registerWithInvite(ctx, body, body.inviteToken);
  await takeAttempt(
    ctx.env,
    [{ name: "signupEmail", subject: body.email }, ...ipKey(ctx, "signupIp")],
    ctx.now,
    TOO_MANY_ATTEMPTS,
  );
  if (await findUserByEmail(ctx.db, body.email)) {
    throw conflict("email_taken", "An account with this email already exists");
  }
  // Only typed in so far: the address is proven by the mailed link (or a reset, or an invite).
  const user = { ...(await newUserRow(ctx, body, newId(), "orgOwner")), emailVerifiedAt: null };
  const orgId = user.orgId as string;
  const companyName = body.companyName ?? "";
  const session = newSession(ctx, user.id);
  const actor = { orgId, actorId: user.id, actorEmail: body.email };
  const verification = await signupVerification(ctx, { id: user.id, email: user.email, orgId });
  try {
    await ctx.db.batch([
      insertOrganization(ctx.db, { id: orgId, name: companyName, createdAt: ctx.now }),
      insertUser(ctx.db, user),
      session.insert,
      ...verification.statements,
      auditEntry(ctx, { ...actor, action: "org.create", targetType: "organization", targetId: orgId }),
      auditEntry(ctx, { ...actor, action: "auth.register", targetType: "user", targetId: user.id }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("email_taken", "An account with this email already exists");
    throw error;
  }
  await deliverMail(ctx.env, ctx.db, [verification.mailId], ctx.now);
  return {
    token: await session.token,
    user: toAuthUser({ ...currentOf(user), orgId, orgName: companyName }),
    isFirstUser: true,
    company: { name: companyName },
  };
}

async function newUserRow(
  ctx: ServiceContext,
  body: RegisterBody,
  orgId: string,
  role: NewUser["role"],
): Promise<NewUser> {
  const password = await hashPassword(body.password, passwordIterations(ctx.env));
  return {
    id: newId(),
    email: body.email,
    fullName: body.fullName,
    passwordHash: password.hash,
    passwordSalt: password.salt,
    passwordIterations: password.iterations,
    orgId,
    role,
    permissions: null,
    createdAt: ctx.now,
  };
}

const currentOf = (user: NewUser): Omit<CurrentUser, "orgId" | "orgName"> => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  permissions: user.permissions ?? null,
});

const inviteKeys = (ctx: ServiceContext, email: string): ThrottleKey[] => [
  { name: "inviteEmail", subject: email },
  ...ipKey(ctx, "inviteIp"),
];

/**
 * Accepting an invite is one conditional write: the user row is taken from the invite only if
 * this request marked it accepted, so a revoke that deleted it first leaves nothing to join.
 */
async function registerWithInvite(
  ctx: ServiceContext,
  body: RegisterBody,
  token: string,
): Promise<AuthResponse> {
  const keys = inviteKeys(ctx, body.email);
  await takeAttempt(ctx.env, keys, ctx.now, TOO_MANY_ATTEMPTS);
  const existing = await findUserByEmail(ctx.db, body.email);
  if (existing && existing.emailVerifiedAt !== null) {
    throw conflict("email_taken", "An account with this email already exists");
  }
  const invite = await usableInvite(ctx, token, body.email);
  if (existing) return takeOverWithInvite(ctx, body, invite, existing, keys);
  const user = {
    ...(await newUserRow(ctx, body, invite.orgId, invite.role)),
    permissions: invite.permissions,
  };
  const session = newSession(ctx, user.id);
  const actor = { orgId: invite.orgId, actorId: user.id, actorEmail: body.email };
  const joined = userExists(user.id);
  let inserted: { meta: { changes: number } };
  try {
    [, inserted] = await ctx.db.batch([
      markInviteAccepted(ctx.db, invite.id, ctx.now),
      insertUserFromInvite(ctx.db, invite.id, ctx.now, user),
      insertSessionIf(ctx.db, session.row, joined),
      auditEntryIf(ctx, { ...actor, action: "auth.register", targetType: "user", targetId: user.id }, joined),
      auditEntryIf(
        ctx,
        {
          ...actor,
          action: "invite.accept",
          targetType: "invite",
          targetId: invite.id,
          details: { role: invite.role },
        },
        joined,
      ),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("email_taken", "An account with this email already exists");
    throw error;
  }
  if (inserted.meta.changes === 0) throw invalidInvite();
  await settleAttempt(ctx.env, keys, "forgive");
  const companyName = (await findOrganization(ctx.db, invite.orgId))?.name ?? "";
  return {
    token: await session.token,
    user: toAuthUser({ ...currentOf(user), orgId: invite.orgId, orgName: companyName }),
    isFirstUser: false,
    company: { name: companyName },
  };
}

/**
 * Registration through an invite mailed to an address a never-verified account holds: whoever
 * follows the link proves the address, so the account becomes theirs (their name and password),
 * moves into the inviting organisation and is verified. Every session of the account ends, and its
 * earlier organisation, when nobody else belongs to it, is deleted with its data.
 */
async function takeOverWithInvite(
  ctx: ServiceContext,
  body: RegisterBody,
  invite: InviteRow,
  existing: UserRow,
  keys: ThrottleKey[],
): Promise<AuthResponse> {
  const password = await hashPassword(body.password, passwordIterations(ctx.env));
  const session = newSession(ctx, existing.id);
  const moved = userInOrg(existing.id, invite.orgId);
  const formerOrgId = existing.orgId !== invite.orgId ? existing.orgId : null;
  const formerHadSystems = formerOrgId ? await organizationHasSystems(ctx.db, formerOrgId) : false;
  const statements: BatchStatement[] = [
    markInviteAccepted(ctx.db, invite.id, ctx.now),
    takeOverThroughInvite(ctx.db, existing.id, invite, ctx.now, {
      fullName: body.fullName,
      passwordHash: password.hash,
      passwordSalt: password.salt,
      passwordIterations: password.iterations,
    }),
    // Whoever signed up with this address before holds no session of it any more.
    deleteUserSessions(ctx.db, existing.id, null, { onlyIf: moved }),
    insertSessionIf(ctx.db, session.row, moved),
    auditEntryIf(
      ctx,
      {
        orgId: invite.orgId,
        actorId: existing.id,
        actorEmail: body.email,
        action: "invite.accept",
        targetType: "invite",
        targetId: invite.id,
        details: { role: invite.role, unverifiedAccountMoved: true },
      },
      moved,
    ),
    ...(formerOrgId ? [deleteOrganizationWithoutMembers(ctx.db, formerOrgId)] : []),
  ];
  const [, takenOver, ended, , , formerDeleted] = await runBatch(ctx.db, statements);
  if (!takenOver || takenOver.meta.changes === 0) throw invalidInvite();
  await deleteUserEmailVerifications(ctx.db, existing.id);
  await settleAttempt(ctx.env, keys, "forgive");
  if (formerOrgId) {
    const endedIds = ((ended?.results ?? []) as { id: string }[]).map((row) => row.id);
    await closeSessionSockets(ctx.env, formerOrgId, endedIds);
    await leaveFleetStore(
      ctx.env,
      formerOrgId,
      existing.id,
      formerHadSystems && (formerDeleted?.meta.changes ?? 0) > 0,
    );
  }
  const current = await loadCurrentUser(ctx, existing.id);
  if (!current) throw invalidInvite();
  return {
    token: await session.token,
    user: toAuthUser(current),
    isFirstUser: false,
    company: current.orgName === null ? null : { name: current.orgName },
  };
}

/**
 * Follows a verification link: the address counts as verified, every link of the account stops
 * working, and the visitor is signed in (a new session). An unknown, used or expired link is a 400.
 */
export async function verifyEmail(ctx: ServiceContext, token: string): Promise<AuthResponse> {
  const link = await consumeVerificationLink(ctx, token);
  const stored = await findUserById(ctx.db, link.userId);
  if (!stored) throw notAuthenticated();
  const session = newSession(ctx, stored.id);
  await ctx.db.batch([
    ...link.statements,
    session.insert,
    auditEntry(ctx, {
      orgId: stored.orgId,
      actorId: stored.id,
      actorEmail: stored.email,
      action: "auth.email_verify",
      targetType: "user",
      targetId: stored.id,
    }),
  ]);
  const current = await loadCurrentUser(ctx, stored.id);
  if (!current) throw notAuthenticated();
  return {
    token: await session.token,
    user: toAuthUser(current),
    isFirstUser: false,
    company: current.orgName === null ? null : { name: current.orgName },
  };
}

export async function login(ctx: ServiceContext, body: LoginBody): Promise<AuthResponse> {
  const ownerKeys: ThrottleKey[] = [
    { name: "loginEmailIp", subject: `${body.email}|${ctx.ip ?? "-"}` },
    { name: "loginEmail", subject: body.email },
  ];
  const addressKeys = ipKey(ctx, "loginIp");
  // Counted before the password is checked: parallel guesses cannot pass the limit.
  await takeAttempt(ctx.env, [...ownerKeys, ...addressKeys], ctx.now, TOO_MANY_SIGN_INS);
  const stored = await findUserByEmail(ctx.db, body.email);
  // Unknown emails are checked against a dummy hash so both failures take the same time.
  const hash = stored
    ? { hash: stored.passwordHash, salt: stored.passwordSalt, iterations: stored.passwordIterations }
    : await dummyPasswordHash(passwordIterations(ctx.env));
  const valid = await verifyPassword(body.password, hash);
  if (!stored || !valid) {
    await auditEntry(ctx, {
      orgId: stored?.orgId ?? null,
      actorId: stored?.id ?? null,
      actorEmail: body.email,
      action: "auth.login_failed",
    });
    throw new ApiError({ code: "invalid_login", message: "Invalid credentials" });
  }
  await Promise.all([
    settleAttempt(ctx.env, ownerKeys, "clear"),
    settleAttempt(ctx.env, addressKeys, "forgive"),
  ]);
  const session = newSession(ctx, stored.id);
  await ctx.db.batch([
    session.insert,
    auditEntry(ctx, {
      orgId: stored.orgId,
      actorId: stored.id,
      actorEmail: stored.email,
      action: "auth.login",
    }),
  ]);
  const current = await loadCurrentUser(ctx, stored.id);
  if (!current) throw new ApiError({ code: "invalid_login", message: "Invalid credentials" });
  return {
    token: await session.token,
    user: toAuthUser(current),
    isFirstUser: false,
    company: current.orgName === null ? null : { name: current.orgName },
  };
}

/**
 * Changes the caller's password after checking the current one, and ends every other session
 * (and their sockets): whoever else held a token for this account holds nothing now.
 */
export async function changePassword(
  ctx: UserContext,
  body: ChangePasswordBody,
): Promise<{ message: string }> {
  const sessionId = currentSessionId(ctx);
  const keys: ThrottleKey[] = [{ name: "passwordUser", subject: ctx.user.id }];
  await takeAttempt(ctx.env, keys, ctx.now, TOO_MANY_ATTEMPTS);
  const stored = await findUserById(ctx.db, ctx.user.id);
  if (!stored) throw notAuthenticated();
  const valid = await verifyPassword(body.currentPassword, {
    hash: stored.passwordHash,
    salt: stored.passwordSalt,
    iterations: stored.passwordIterations,
  });
  if (!valid) {
    throw invalidField("currentPassword", "The current password is not correct");
  }
  const password = await hashPassword(body.newPassword, passwordIterations(ctx.env));
  const [, ended] = await ctx.db.batch([
    updatePassword(ctx.db, ctx.user.id, password),
    deleteUserSessions(ctx.db, ctx.user.id, sessionId),
    auditEntry(ctx, {
      orgId: ctx.user.orgId,
      actorId: ctx.user.id,
      actorEmail: ctx.user.email,
      action: "auth.password_change",
      targetType: "user",
      targetId: ctx.user.id,
    }),
  ]);
  await settleAttempt(ctx.env, keys, "clear");
  await closeSessionSockets(
    ctx.env,
    ctx.user.orgId,
    ended.map((s) => s.id),
  );
  return { message: "Password changed. Every other session was signed out." };
}

function requireNoOrg(ctx: UserContext): void {
  if (ctx.user.orgId !== null)
    throw conflict("already_in_organisation", "You already belong to an organisation");
  if (ctx.user.role === "superAdmin")
    throw conflict("platform_admin", "A platform administrator does not join organisations");
}

/** Onboarding for a signed-in user without an organisation: they found a new one and own it. */
export async function createOwnOrganization(ctx: UserContext, companyName: string): Promise<SignupResponse> {
  requireNoOrg(ctx);
  const orgId = newId();
  const actor = { orgId, actorId: ctx.user.id, actorEmail: ctx.user.email };
  await ctx.db.batch([
    insertOrganization(ctx.db, { id: orgId, name: companyName, createdAt: ctx.now }),
    attachUserToOrg(ctx.db, ctx.user.id, orgId, "orgOwner", null),
    auditEntry(ctx, { ...actor, action: "org.create", targetType: "organization", targetId: orgId }),
  ]);
  return { isFirstUser: true, company: { name: companyName } };
}

/**
 * A signed-in user joins through an invite sent to their email, which verifies it: a user without
 * an organisation, or one whose address was never verified, whose earlier membership ends (and
 * that organisation, when nobody else belongs to it, is deleted with its data).
 */
export async function acceptInvite(ctx: UserContext, token: string): Promise<Profile> {
  const stored = await findUserById(ctx.db, ctx.user.id);
  if (!stored) throw notAuthenticated();
  const neverVerified = stored.emailVerifiedAt === null;
  if (!neverVerified) requireNoOrg(ctx);
  const keys = inviteKeys(ctx, ctx.user.email);
  await takeAttempt(ctx.env, keys, ctx.now, TOO_MANY_ATTEMPTS);
  const invite = await usableInvite(ctx, token, ctx.user.email);
  const formerOrgId = neverVerified && stored.orgId !== invite.orgId ? stored.orgId : null;
  const formerHadSystems = formerOrgId ? await organizationHasSystems(ctx.db, formerOrgId) : false;
  const [, joined, , formerDeleted] = await runBatch(ctx.db, [
    markInviteAccepted(ctx.db, invite.id, ctx.now),
    joinOrgThroughInvite(ctx.db, ctx.user.id, invite, ctx.now),
    auditEntryIf(
      ctx,
      {
        orgId: invite.orgId,
        actorId: ctx.user.id,
        actorEmail: ctx.user.email,
        action: "invite.accept",
        targetType: "invite",
        targetId: invite.id,
        details: formerOrgId ? { role: invite.role, unverifiedAccountMoved: true } : { role: invite.role },
      },
      userInOrg(ctx.user.id, invite.orgId),
    ),
    ...(formerOrgId ? [deleteOrganizationWithoutMembers(ctx.db, formerOrgId)] : []),
  ]);
  // The invite was revoked (or used) between the read and the write: nothing was joined.
  if (!joined || joined.meta.changes === 0) throw invalidInvite();
  await deleteUserEmailVerifications(ctx.db, ctx.user.id);
  await settleAttempt(ctx.env, keys, "forgive");
  if (formerOrgId) {
    await leaveFleetStore(
      ctx.env,
      formerOrgId,
      ctx.user.id,
      formerHadSystems && (formerDeleted?.meta.changes ?? 0) > 0,
    );
  }
  const current = await loadCurrentUser(ctx, ctx.user.id);
  if (!current) throw notAuthenticated();
  return toProfile(current);
}
