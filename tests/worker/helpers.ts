import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { AuthResponse } from "../../schema/api/auth";
import type { InviteCreated } from "../../schema/api/members";
import type { Role } from "../../schema/roles";

export const BASE = "http://sunfleet.test";

export interface CallInit {
  method?: string;
  token?: string | null;
  body?: unknown;
  /** Raw body text, sent as is (malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the real worker entry point inside workerd. */
export async function call(path: string, init: CallInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return SELF.fetch(new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body }));
}

/** Asserts the status, showing the body when it differs, and returns the parsed JSON. */
export async function expectStatus<T = unknown>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.status} ${text}`).toBe(status);
  return (text ? JSON.parse(text) : null) as T;
}

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}-${Date.now()}-${++counter}@example.com`;
export const PASSWORD = "correct horse battery";

export interface TestUser {
  id: string;
  email: string;
  token: string;
  orgId: string;
  role: Role;
}

export async function registerOwner(companyName = "Acme Solar"): Promise<TestUser> {
  const email = uniqueEmail("owner");
  const res = await call("/api/auth/register", {
    method: "POST",
    body: { email, password: PASSWORD, fullName: "Olivia Owner", companyName },
  });
  const auth = await expectStatus<AuthResponse>(res, 201);
  return { id: auth.user.id, email, token: auth.token, orgId: auth.user.companyId ?? "", role: "orgOwner" };
}

/** Invites someone into the inviter's organisation and registers them through the link. */
export async function addMember(inviter: TestUser, role: Role, prefix: string = role): Promise<TestUser> {
  const email = uniqueEmail(prefix);
  const invited = await expectStatus<InviteCreated>(
    await call("/api/users/invite", { method: "POST", token: inviter.token, body: { email, role } }),
    201,
  );
  const inviteToken = new URL(invited.inviteLink).searchParams.get("invite") ?? "";
  const auth = await expectStatus<AuthResponse>(
    await call("/api/auth/register", {
      method: "POST",
      body: { email, password: PASSWORD, fullName: `${role} person`, inviteToken },
    }),
    201,
  );
  return { id: auth.user.id, email, token: auth.token, orgId: inviter.orgId, role };
}

/** A platform superAdmin, created the way the command-line tool does: directly in D1. */
export async function createSuperAdmin(): Promise<TestUser> {
  const { hashPassword } = await import("../../worker/lib/password");
  const email = uniqueEmail("admin");
  const hash = await hashPassword(PASSWORD);
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO users (id, email, full_name, password_hash, password_salt, password_iterations, org_id, role, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 'superAdmin', NULL, ?)",
  )
    .bind(id, email, "Platform Admin", hash.hash, hash.salt, hash.iterations, Date.now())
    .run();
  const auth = await expectStatus<AuthResponse>(
    await call("/api/auth/login", { method: "POST", body: { email, password: PASSWORD } }),
    200,
  );
  return { id, email, token: auth.token, orgId: "", role: "superAdmin" };
}

/** Row counts of every table, to prove a failed request wrote nothing. */
export async function tableCounts(): Promise<Record<string, number>> {
  const tables = ["organizations", "users", "invites", "audit_logs", "user_preferences"];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    counts[table] = row?.n ?? 0;
  }
  return counts;
}
