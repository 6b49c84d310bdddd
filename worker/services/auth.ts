import type {
  AuthResponse,
  AuthUser,
  LoginBody,
  Profile,
  RegisterBody,
  SignupResponse,
} from "../../schema/api/auth";
import type { InviteRow, users } from "../../schema/tables";

type NewUser = typeof users.$inferInsert;

import { findInviteByTokenHash, markInviteAccepted } from "../data/invites";
import { clearLoginFailures, failuresSince, recordLoginFailure } from "../data/login-failures";
import { findOrganization, insertOrganization } from "../data/organizations";
import { attachUserToOrg, findUserByEmail, findUserWithOrg, insertUser } from "../data/users";
import { ApiError, badRequest, conflict, tooManyRequests } from "../lib/errors";
import { newId, sha256Hex } from "../lib/ids";
import { dummyPasswordHash, hashPassword, passwordIterations, verifyPassword } from "../lib/password";
import { jwtSecret } from "../lib/secrets";
import { signSessionToken } from "../lib/tokens";
import { auditEntry } from "./audit";
import type { CurrentUser, ServiceContext, UserContext } from "./context";

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

const INVALID_INVITE = "This invite link is invalid, has expired or has already been used";

const toAuthUser = (user: CurrentUser): AuthUser => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  companyId: user.orgId,
  user_metadata: { companyName: user.orgName },
});

export const toProfile = (user: CurrentUser): Profile => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role,
  companyName: user.orgName,
  companyId: user.orgId,
  // A platform superAdmin works across organisations and never needs to create one.
  onboardingRequired: user.orgId === null && user.role !== "superAdmin",
  permissions: user.permissions,
});

export async function loadCurrentUser(ctx: ServiceContext, userId: string): Promise<CurrentUser | null> {
  const row = await findUserWithOrg(ctx.db, userId);
  if (!row) return null;
  return { ...row, orgName: row.orgName ?? null };
}

async function usableInvite(ctx: ServiceContext, token: string, email: string): Promise<InviteRow> {
  const invite = await findInviteByTokenHash(ctx.db, await sha256Hex(token));
  if (!invite || invite.acceptedAt !== null || invite.expiresAt <= ctx.now) {
    throw badRequest(INVALID_INVITE, [{ path: ["inviteToken"], message: INVALID_INVITE }]);
  }
  if (invite.email !== email) {
    const message = "This invite was sent to a different email address";
    throw badRequest(message, [{ path: ["email"], message }]);
  }
  return invite;
}

/** D1 reports the unique-email index on a concurrent duplicate registration this way. */
const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed/i.test(error.message);

export async function register(ctx: ServiceContext, body: RegisterBody): Promise<AuthResponse> {
  if (await findUserByEmail(ctx.db, body.email)) {
    throw conflict("An account with this email already exists");
  }
  const invite = body.inviteToken ? await usableInvite(ctx, body.inviteToken, body.email) : null;
  const password = await hashPassword(body.password, passwordIterations(ctx.env));
  const userId = newId();
  const user: NewUser = {
    id: userId,
    email: body.email,
    fullName: body.fullName,
    passwordHash: password.hash,
    passwordSalt: password.salt,
    passwordIterations: password.iterations,
    orgId: invite ? invite.orgId : newId(),
    role: invite ? invite.role : "orgOwner",
    permissions: invite ? invite.permissions : null,
    createdAt: ctx.now,
  };
  const orgId = user.orgId as string;
  const companyName = invite
    ? ((await findOrganization(ctx.db, orgId))?.name ?? "")
    : (body.companyName ?? "");
  const actor = { orgId, actorId: userId, actorEmail: body.email };
  try {
    if (invite) {
      // One transaction: the invite is bound to this email and emails are unique, so a
      // concurrent second acceptance fails on the email index and rolls everything back.
      await ctx.db.batch([
        markInviteAccepted(ctx.db, invite.id, ctx.now),
        insertUser(ctx.db, user),
        auditEntry(ctx, { ...actor, action: "auth.register", targetType: "user", targetId: userId }),
        auditEntry(ctx, {
          ...actor,
          action: "invite.accept",
          targetType: "invite",
          targetId: invite.id,
          details: { role: invite.role },
        }),
      ]);
    } else {
      await ctx.db.batch([
        insertOrganization(ctx.db, { id: orgId, name: companyName, createdAt: ctx.now }),
        insertUser(ctx.db, user),
        auditEntry(ctx, { ...actor, action: "org.create", targetType: "organization", targetId: orgId }),
        auditEntry(ctx, { ...actor, action: "auth.register", targetType: "user", targetId: userId }),
      ]);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("An account with this email already exists");
    throw error;
  }
  const current: CurrentUser = {
    id: userId,
    email: body.email,
    fullName: body.fullName,
    role: user.role,
    orgId,
    orgName: companyName,
    permissions: user.permissions ?? null,
  };
  return {
    token: await signSessionToken(userId, jwtSecret(ctx.env), ctx.now),
    user: toAuthUser(current),
    isFirstUser: !invite,
    company: { name: companyName },
  };
}

export async function login(ctx: ServiceContext, body: LoginBody): Promise<AuthResponse> {
  const windowStart = ctx.now - LOGIN_WINDOW_MS;
  const { failures, oldest } = await failuresSince(ctx.db, body.email, windowStart);
  if (failures >= LOGIN_MAX_FAILURES && oldest !== null) {
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + LOGIN_WINDOW_MS - ctx.now) / 1000));
    throw tooManyRequests("Too many failed sign-in attempts. Try again later.", retryAfterSeconds);
  }
  const stored = await findUserByEmail(ctx.db, body.email);
  // Unknown emails are checked against a dummy hash so both failures take the same time.
  const hash = stored
    ? { hash: stored.passwordHash, salt: stored.passwordSalt, iterations: stored.passwordIterations }
    : await dummyPasswordHash(passwordIterations(ctx.env));
  const valid = await verifyPassword(body.password, hash);
  if (!stored || !valid) {
    await ctx.db.batch([
      recordLoginFailure(ctx.db, body.email, ctx.now),
      auditEntry(ctx, {
        orgId: stored?.orgId ?? null,
        actorId: stored?.id ?? null,
        actorEmail: body.email,
        action: "auth.login_failed",
      }),
    ]);
    throw new ApiError(401, "Invalid credentials");
  }
  await ctx.db.batch([
    clearLoginFailures(ctx.db, body.email),
    auditEntry(ctx, {
      orgId: stored.orgId,
      actorId: stored.id,
      actorEmail: stored.email,
      action: "auth.login",
    }),
  ]);
  const current = await loadCurrentUser(ctx, stored.id);
  if (!current) throw new ApiError(401, "Invalid credentials");
  return {
    token: await signSessionToken(stored.id, jwtSecret(ctx.env), ctx.now),
    user: toAuthUser(current),
    isFirstUser: false,
    company: current.orgName === null ? null : { name: current.orgName },
  };
}

export async function logout(ctx: UserContext): Promise<void> {
  await auditEntry(ctx, {
    orgId: ctx.user.orgId,
    actorId: ctx.user.id,
    actorEmail: ctx.user.email,
    action: "auth.logout",
  });
}

function requireNoOrg(ctx: UserContext): void {
  if (ctx.user.orgId !== null) throw conflict("You already belong to an organisation");
  if (ctx.user.role === "superAdmin") throw conflict("A platform administrator does not join organisations");
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

/** A signed-in user without an organisation joins through an invite sent to their email. */
export async function acceptInvite(ctx: UserContext, token: string): Promise<Profile> {
  requireNoOrg(ctx);
  const invite = await usableInvite(ctx, token, ctx.user.email);
  await ctx.db.batch([
    markInviteAccepted(ctx.db, invite.id, ctx.now),
    attachUserToOrg(ctx.db, ctx.user.id, invite.orgId, invite.role, invite.permissions),
    auditEntry(ctx, {
      orgId: invite.orgId,
      actorId: ctx.user.id,
      actorEmail: ctx.user.email,
      action: "invite.accept",
      targetType: "invite",
      targetId: invite.id,
      details: { role: invite.role },
    }),
  ]);
  const current = await loadCurrentUser(ctx, ctx.user.id);
  if (!current) throw new ApiError(401, "Not authenticated");
  return toProfile(current);
}
