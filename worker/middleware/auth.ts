import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";
import { serviceContext } from "../hono-env";
import { notAuthenticated } from "../lib/errors";
import { authenticate } from "../services/sessions";

/**
 * Bearer-token authentication: the token's session must still exist, and the user is re-read
 * from D1 with it, so logouts, removals and role changes apply at once.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw notAuthenticated();
  const caller = await authenticate(serviceContext(c), match[1]);
  if (!caller) throw notAuthenticated();
  c.set("user", caller.user);
  c.set("sessionId", caller.sessionId);
  c.set("tokenExpiresAt", caller.tokenExpiresAt);
  await next();
});
