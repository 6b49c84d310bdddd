import type { MemberPermission, Role } from "../../schema/roles";
import type { OrgVersions } from "../data/fleet-directory";
import type { Env } from "../env";
import type { Db } from "../lib/db";

/** The caller, re-read from D1 on every request so role changes and removals apply at once. */
export interface CurrentUser {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  orgId: string | null;
  orgName: string | null;
  permissions: MemberPermission[] | null;
  /** Set when the caller is an organisation API key rather than a signed-in member. */
  apiKey?: { id: string; scope: "read" | "write" };
}

/** What every service function receives: no Hono types, so cron, queues and tests can call them. */
export interface ServiceContext {
  db: Db;
  env: Env;
  now: number;
  ip: string | null;
  /** The caller's User-Agent, for naming a new session's device; absent outside requests. */
  userAgent?: string | null;
  /** Public origin for links the server hands out (invite links). */
  origin: string;
  /** Transport to the vendor clouds; tests hand in the provider sandbox. Defaults to fetch. */
  providerFetch?: (request: Request) => Promise<Response>;
  /** Keeps work that goes on after the answer alive (the request's `waitUntil`); absent outside requests. */
  waitUntil?: (promise: Promise<unknown>) => void;
}

export interface UserContext extends ServiceContext {
  user: CurrentUser;
  /** The session the request's token names; absent when a service runs outside a request. */
  sessionId?: string;
  /**
   * D1's counters for the caller's organisation as the request's authentication read them, handed
   * to its fleet store with each read; absent (the store reads them) outside requests.
   */
  orgVersions?: OrgVersions;
}

/** A caller who belongs to an organisation; the org id scopes every query they make. */
export interface OrgContext extends UserContext {
  user: CurrentUser & { orgId: string };
}
