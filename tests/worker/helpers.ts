import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { decodeJwt, SignJWT, UnsecuredJWT } from "jose";
import { expect } from "vitest";
import type { AuditEntry, AuditPage } from "../../schema/api/audit";
import type { AuthResponse } from "../../schema/api/auth";
import { type ApiErrorBody, typedApiErrorBodySchema } from "../../schema/api/errors";
import type { InviteCreated } from "../../schema/api/members";
import type { MemberPermission, Role } from "../../schema/roles";

export const BASE = "http://sunfleet.test";
/** The JWT_SECRET vitest.config.ts gives the worker under test. */
export const TEST_JWT_SECRET = "test-jwt-secret-that-is-at-least-32-characters-long";
export const TOKEN_ISSUER = "sunfleet";
export const DAY_MS = 24 * 60 * 60 * 1000;

export interface CallInit {
  method?: string;
  token?: string | null;
  body?: unknown;
  /** Raw body, sent as is (malformed JSON and oversized body tests). */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

/** Calls the real worker entry point inside workerd. */
export async function call(path: string, init: CallInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  let body: BodyInit | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return SELF.fetch(new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body }));
}

/** Asserts the status, showing the body when it differs, and returns the parsed JSON. */
export async function expectStatus<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.status} ${text}`).toBe(status);
  expectNoInternals(text);
  const body: unknown = text ? JSON.parse(text) : null;
  if (status >= 400 && res.headers.get("Content-Type")?.startsWith("application/json"))
    expectErrorBody(body, text);
  return body as T;
}

/** Every error answer: `{ error, code, details? }` with a code of the enum and that code's details. */
export function expectErrorBody(body: unknown, text = JSON.stringify(body)): asserts body is ApiErrorBody {
  const parsed = typedApiErrorBodySchema.safeParse(body);
  expect(parsed.success, `error body shape: ${text} ${parsed.error?.message ?? ""}`).toBe(true);
}

/** No stack frame, source location or SQL ever reaches a client. */
export function expectNoInternals(text: string): void {
  expect(text, text).not.toMatch(/\n\s+at\s|\bat\s+\S+\s+\(|\.(?:ts|js|mjs):\d+/);
  expect(text, text).not.toMatch(
    /\bSELECT\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE\s+\S+\s+SET\b|SQLITE_|D1_ERROR|sqlite/,
  );
}

/**
 * Asserts a failure in the one error shape, `{ error, code, details? }` as JSON, with the status and
 * (optionally) the message; returns the body.
 */
export async function expectError(
  res: Response,
  status: number,
  message?: string | RegExp,
): Promise<ApiErrorBody> {
  const text = await res.text();
  expect(res.status, `${res.status} ${text}`).toBe(status);
  expect(res.headers.get("Content-Type") ?? "", text).toMatch(/^application\/json/);
  expectNoInternals(text);
  const error: unknown = JSON.parse(text);
  expectErrorBody(error, text);
  if (typeof message === "string") expect(error.error).toBe(message);
  else if (message) expect(error.error).toMatch(message);
  return error;
}

let counter = 0;
export const uniqueEmail = (prefix = "user") =>
  `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`.toLowerCase();
export const PASSWORD = "correct horse battery";

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** Empty for a user outside any organisation (superAdmin, removed user). */
  orgId: string;
  role: Role;
}

export interface Route {
  method: string;
  path: string;
  body?: unknown;
}

export const routeName = (route: Route) => `${route.method} ${route.path}`;

/** PUT /api/organization/tariff as `actor`: the organisation's default price of energy. */
export const putOrgTariff = (actor: Pick<TestUser, "token">, body: unknown) =>
  call("/api/organization/tariff", { method: "PUT", token: actor.token, body });

/**
 * Signs up through the API. The owner's address counts as verified (as if they had followed the
 * mailed link) unless `verified: false`: the link itself is tested in email-verification.test.ts.
 */
export async function registerOwner(
  companyName = "Acme Solar",
  email = uniqueEmail("owner"),
  options: { verified?: boolean } = {},
): Promise<TestUser> {
  const res = await call("/api/auth/register", {
    method: "POST",
    body: { email, password: PASSWORD, fullName: "Olivia Owner", companyName },
  });
  const auth = await expectStatus<AuthResponse>(res, 201);
  if (options.verified ?? true) await markEmailVerified(auth.user.id);
  return { id: auth.user.id, email, token: auth.token, orgId: auth.user.companyId ?? "", role: "orgOwner" };
}

/** Marks the account's address verified in D1, as following its link would. */
export const markEmailVerified = (userId: string, at = Date.now()) =>
  env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL")
    .bind(at, userId)
    .run();

export interface TestInvite {
  id: string;
  email: string;
  role: Role;
  /** The secret token from the accept link. */
  token: string;
  link: string;
  created: InviteCreated;
}

/** Creates an invite as `inviter` through the API and returns its accept-link token. */
export async function createInvite(
  inviter: TestUser,
  role: Role,
  options: { email?: string; permissions?: MemberPermission[] | null; path?: string } = {},
): Promise<TestInvite> {
  const email = options.email ?? uniqueEmail(`invited-${role}`);
  const body: Record<string, unknown> = { email, role };
  if (options.permissions !== undefined) body.permissions = options.permissions;
  const created = await expectStatus<InviteCreated>(
    await call(options.path ?? "/api/users/invite", { method: "POST", token: inviter.token, body }),
    201,
  );
  return {
    id: created.invite.id,
    email,
    role,
    token: inviteTokenOf(created.inviteLink),
    link: created.inviteLink,
    created,
  };
}

export const inviteTokenOf = (link: string) => new URL(link).searchParams.get("invite") ?? "";

/** Registers someone through an invite's accept link. */
export async function registerWithInvite(invite: TestInvite, fullName = "Invited Person"): Promise<TestUser> {
  const auth = await expectStatus<AuthResponse>(
    await call("/api/auth/register", {
      method: "POST",
      body: { email: invite.email, password: PASSWORD, fullName, inviteToken: invite.token },
    }),
    201,
  );
  return {
    id: auth.user.id,
    email: invite.email,
    token: auth.token,
    orgId: auth.user.companyId ?? "",
    role: auth.user.role,
  };
}

/** Invites someone into the inviter's organisation and registers them through the link. */
export async function addMember(
  inviter: TestUser,
  role: Role,
  options: { prefix?: string; permissions?: MemberPermission[] | null } = {},
): Promise<TestUser> {
  const invite = await createInvite(inviter, role, {
    email: uniqueEmail(options.prefix ?? role),
    permissions: options.permissions,
  });
  return registerWithInvite(invite, `${role} person`);
}

export interface TestOrg {
  owner: TestUser;
  engineer: TestUser;
  user: TestUser;
}

/** An organisation with one member of each organisation role. */
export async function createOrg(companyName = "Acme Solar"): Promise<TestOrg> {
  const owner = await registerOwner(companyName);
  const engineer = await addMember(owner, "orgEngineer");
  const user = await addMember(owner, "user");
  return { owner, engineer, user };
}

/**
 * A user whose organisation removed them: the account remains, without an organisation. Removal
 * ended their sessions, so they have signed in again.
 */
export async function createRemovedUser(): Promise<TestUser> {
  const owner = await registerOwner("Former Employer");
  const member = await addMember(owner, "orgEngineer", { prefix: "removed" });
  await expectStatus(await call(`/api/users/${member.id}`, { method: "DELETE", token: owner.token }), 200);
  const auth = await expectStatus<AuthResponse>(await login(member.email), 200);
  return { ...member, token: auth.token, orgId: "", role: "user" };
}

export async function login(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return call("/api/auth/login", { method: "POST", body: { email, password }, headers });
}

/** A platform superAdmin, created the way the command-line tool does: directly in D1. */
export async function createSuperAdmin(): Promise<TestUser> {
  const { hashPassword, passwordIterations } = await import("../../worker/lib/password");
  const email = uniqueEmail("admin");
  const hash = await hashPassword(PASSWORD, passwordIterations(env));
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 'superAdmin', NULL, ?)",
  )
    .bind(id, email, "Platform Admin", hash.hash, hash.salt, hash.iterations, Date.now())
    .run();
  const auth = await expectStatus<AuthResponse>(await login(email), 200);
  return { id, email, token: auth.token, orgId: "", role: "superAdmin" };
}

const TABLES = ["organizations", "users", "invites", "audit_logs", "user_preferences", "sessions"];

/** Row counts of every table, to prove a failed request wrote nothing. */
export async function tableCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  return counts;
}

/** Runs `request` and asserts it changed no row count. */
export async function expectNothingWritten(request: () => Promise<void>): Promise<void> {
  const before = await tableCounts();
  await request();
  expect(await tableCounts()).toEqual(before);
}

export interface UserRowView {
  id: string;
  email: string;
  org_id: string | null;
  role: Role;
  permissions: string | null;
}

export const userRow = (id: string) =>
  env.DB.prepare("SELECT id, email, org_id, role, permissions FROM users WHERE id = ?")
    .bind(id)
    .first<UserRowView>();

/** The organisation's audit entries through the API, newest first. */
export async function auditLog(reader: TestUser, query = ""): Promise<AuditPage> {
  return expectStatus<AuditPage>(
    await call(`/api/admin/logs?pageSize=200${query}`, { token: reader.token }),
    200,
  );
}

export const entriesFor = (page: AuditPage, action: string): AuditEntry[] =>
  page.logs.filter((entry) => entry.action === action);

export interface TokenClaims {
  sub?: string;
  /** The session the token names. */
  sid?: string;
  iss?: string;
  /** Seconds since the epoch. */
  iat?: number;
  /** Seconds since the epoch; null leaves the claim out. */
  exp?: number | null;
}

/** Signs a session token the way the worker does, with any claims and key a test needs. */
export async function signToken(claims: TokenClaims, secret = TEST_JWT_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims.sid === undefined ? {} : { sid: claims.sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(claims.iss ?? TOKEN_ISSUER)
    .setIssuedAt(claims.iat ?? now);
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? now + 3600);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** The session id a genuine token names. */
export const sessionIdOf = (token: string): string => String(decodeJwt(token).sid ?? "");

/** A correctly signed token for the user's live session that expired a day ago (issued eight days ago). */
export function expiredToken(user: Pick<TestUser, "id" | "token">): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signToken({ sub: user.id, sid: sessionIdOf(user.token), iat: now - 8 * 86_400, exp: now - 86_400 });
}

/** An unsigned token (`alg: none`) naming the user and their live session. */
export function unsignedToken(user: Pick<TestUser, "id" | "token">): string {
  const now = Math.floor(Date.now() / 1000);
  return new UnsecuredJWT({ sid: sessionIdOf(user.token) })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .encode();
}

const base64UrlJson = (value: unknown) =>
  btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** The user's genuine token with its payload swapped for one naming another user: the signature no longer matches. */
export function tamperedToken(token: string, otherUserId: string): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(atob((payload ?? "").replaceAll("-", "+").replaceAll("_", "/"))) as Record<
    string,
    unknown
  >;
  return [header, base64UrlJson({ ...claims, sub: otherUserId }), signature].join(".");
}

/**
 * The shared check every protected route's tests call: a missing, malformed, forged, expired,
 * tampered or unsigned token answers 401 "Not authenticated", and nothing is written.
 * `user` is a real account, so the expired and forged tokens fail for their flaw alone.
 */
export async function expectRejectsBadTokens(route: Route, user: TestUser): Promise<void> {
  const bad: Record<string, Record<string, string>> = {
    "no Authorization header": {},
    "an empty bearer token": { Authorization: "Bearer " },
    "another scheme": { Authorization: `Basic ${btoa(`${user.email}:${PASSWORD}`)}` },
    "a malformed token": { Authorization: "Bearer not-a-jwt" },
    "a token signed with another secret": {
      Authorization: `Bearer ${await signToken({ sub: user.id, sid: sessionIdOf(user.token) }, "another-secret-that-is-also-32-characters-long")}`,
    },
    "an expired token": { Authorization: `Bearer ${await expiredToken(user)}` },
    "a tampered token": { Authorization: `Bearer ${tamperedToken(user.token, crypto.randomUUID())}` },
    "an unsigned (alg none) token": { Authorization: `Bearer ${unsignedToken(user)}` },
  };
  const before = await tableCounts();
  for (const [label, headers] of Object.entries(bad)) {
    const res = await call(route.path, { method: route.method, body: route.body, headers });
    const text = await res.text();
    expect(res.status, `${routeName(route)} with ${label}: ${res.status} ${text}`).toBe(401);
    expect(JSON.parse(text), `${routeName(route)} with ${label}`).toEqual({
      error: "Not authenticated",
      code: "unauthenticated",
    });
  }
  expect(await tableCounts(), `${routeName(route)} wrote rows while refusing bad tokens`).toEqual(before);
}
