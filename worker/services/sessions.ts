import type { AccountSession } from "../../schema/api/auth";
import type { SessionRow } from "../../schema/tables";
import type { OrgVersions } from "../data/fleet-directory";
import {
  deleteSession,
  deleteUserSessions,
  findActiveSessionUser,
  insertSession,
  listActiveSessions,
  touchSession,
} from "../data/sessions";
import type { Env } from "../env";
import { notAuthenticated } from "../lib/errors";
import { fleetStoreFor } from "../lib/fleet-store";
import { newId } from "../lib/ids";
import { jwtSecret } from "../lib/secrets";
import { signSessionToken, TOKEN_TTL_SECONDS, verifySessionToken } from "../lib/tokens";
import { deviceLabel } from "../lib/user-agent";
import { auditEntry } from "./audit";
import type { CurrentUser, ServiceContext, UserContext } from "./context";

/** Last-seen moves at most once a minute, so browsing costs no write per request. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;
/** A session unused this long ends unless SESSION_IDLE_MINUTES says otherwise. */
export const DEFAULT_SESSION_IDLE_MINUTES = 12 * 60;

/** How long a session may go unused before it must sign in again. */
export function sessionIdleMs(env: Pick<Env, "SESSION_IDLE_MINUTES">): number {
  const minutes = Number(env.SESSION_IDLE_MINUTES ?? DEFAULT_SESSION_IDLE_MINUTES);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_SESSION_IDLE_MINUTES) * 60_000;
}

export interface NewSession {
  sessionId: string;
  row: SessionRow;
  /** The insert, to be batched with the sign-in it belongs to. */
  insert: ReturnType<typeof insertSession>;
  token: Promise<string>;
}

/** A session record for a sign-in and the token that names it. */
export function newSession(ctx: ServiceContext, userId: string): NewSession {
  const sessionId = newId();
  const row: SessionRow = {
    id: sessionId,
    userId,
    device: deviceLabel(ctx.userAgent),
    ip: ctx.ip,
    createdAt: ctx.now,
    lastSeenAt: ctx.now,
    expiresAt: ctx.now + TOKEN_TTL_SECONDS * 1000,
  };
  return {
    sessionId,
    row,
    insert: insertSession(ctx.db, row),
    token: signSessionToken(userId, sessionId, jwtSecret(ctx.env), ctx.now),
  };
}

export interface Authenticated {
  user: CurrentUser;
  sessionId: string;
  /** Epoch ms when the token expires. */
  tokenExpiresAt: number;
  /** D1's counters for the user's organisation, read with the session (none without one). */
  orgVersions: OrgVersions | null;
}

/**
 * The caller a token names, if its signature holds and its session has neither ended nor gone
 * unused past the idle limit; null otherwise. Use moves last-seen on, once a minute at most.
 */
export async function authenticate(ctx: ServiceContext, token: string): Promise<Authenticated | null> {
  const claims = await verifySessionToken(token, jwtSecret(ctx.env));
  if (!claims) return null;
  const idleSince = ctx.now - sessionIdleMs(ctx.env);
  const row = await findActiveSessionUser(ctx.db, claims.sessionId, ctx.now, idleSince);
  if (!row || row.id !== claims.userId) return null;
  if (ctx.now - row.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
    await touchSession(ctx.db, row.sessionId, ctx.now, ctx.now - LAST_SEEN_RESOLUTION_MS);
  }
  const { sessionId, lastSeenAt: _seen, expiresAt: _expires, orgVersions, ...user } = row;
  return {
    user: { ...user, orgName: user.orgName ?? null },
    sessionId,
    tokenExpiresAt: Math.min(claims.expiresAt, row.expiresAt),
    orgVersions: user.orgId === null ? null : orgVersions,
  };
}

export function currentSessionId(ctx: UserContext): string {
  if (!ctx.sessionId) throw notAuthenticated();
  return ctx.sessionId;
}

/** Closes the live sockets of ended sessions; the user's organisation holds them. */
export async function closeSessionSockets(
  env: Env,
  orgId: string | null,
  sessionIds: string[],
): Promise<void> {
  if (orgId === null || sessionIds.length === 0) return;
  await fleetStoreFor(env, orgId).disconnectSessions(orgId, sessionIds);
}

export async function listSessions(ctx: UserContext): Promise<AccountSession[]> {
  const current = currentSessionId(ctx);
  const rows = await listActiveSessions(ctx.db, ctx.user.id, ctx.now, ctx.now - sessionIdleMs(ctx.env));
  return rows.map((row) => ({
    id: row.id,
    device: row.device,
    ip: row.ip,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: new Date(row.lastSeenAt).toISOString(),
    current: row.id === current,
  }));
}

const actorOf = (ctx: UserContext) => ({
  orgId: ctx.user.orgId,
  actorId: ctx.user.id,
  actorEmail: ctx.user.email,
});

/** Ends the request's own session (logout). */
export async function endCurrentSession(ctx: UserContext): Promise<void> {
  const [ended] = await ctx.db.batch([
    deleteSession(ctx.db, ctx.user.id, currentSessionId(ctx)),
    auditEntry(ctx, { ...actorOf(ctx), action: "auth.logout" }),
  ]);
  await closeSessionSockets(
    ctx.env,
    ctx.user.orgId,
    ended.map((s) => s.id),
  );
}

/** Ends every session of the user but the request's own; answers how many ended. */
export async function endOtherSessions(ctx: UserContext): Promise<number> {
  const [ended] = await ctx.db.batch([
    deleteUserSessions(ctx.db, ctx.user.id, currentSessionId(ctx)),
    auditEntry(ctx, { ...actorOf(ctx), action: "auth.sessions_end" }),
  ]);
  await closeSessionSockets(
    ctx.env,
    ctx.user.orgId,
    ended.map((s) => s.id),
  );
  return ended.length;
}
