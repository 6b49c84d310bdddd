import type { Context } from "hono";
import type { OrgVersions } from "./data/fleet-directory";
import type { Env } from "./env";
import { createDb } from "./lib/db";
import type { CurrentUser, ServiceContext, UserContext } from "./services/context";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    user: CurrentUser;
    sessionId: string;
    /** Epoch ms when the request's token expires. */
    tokenExpiresAt: number;
    /** D1's counters for the caller's organisation, read with its session or API key. */
    orgVersions: OrgVersions | null;
  };
}

export type AppContext = Context<AppEnv>;

/** The service context of a request: database, env, clock, caller IP and public origin. */
export function serviceContext(c: AppContext): ServiceContext {
  return {
    db: createDb(c.env.DB),
    env: c.env,
    now: Date.now(),
    // Cloudflare sets CF-Connecting-IP itself; X-Forwarded-For would be whatever the client sent.
    ip: c.req.header("CF-Connecting-IP") ?? null,
    userAgent: c.req.header("User-Agent") ?? null,
    origin: c.env.APP_URL ?? new URL(c.req.url).origin,
  };
}

/** The request's waitUntil, for work that goes on after the answer; absent without an execution context. */
export function requestWaitUntil(c: AppContext): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const executionCtx = c.executionCtx;
    return (promise) => executionCtx.waitUntil(promise);
  } catch {
    // Hono throws when the request has no execution context.
    return undefined;
  }
}

export function userContext(c: AppContext): UserContext {
  return {
    ...serviceContext(c),
    user: c.get("user"),
    sessionId: c.get("sessionId"),
    orgVersions: c.get("orgVersions") ?? undefined,
  };
}
