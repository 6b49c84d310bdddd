import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";
import { serviceContext } from "../hono-env";
import { notAuthenticated } from "../lib/errors";
import { jwtSecret } from "../lib/secrets";
import { verifySessionToken } from "../lib/tokens";
import { loadCurrentUser } from "../services/auth";

/** Bearer-token authentication; the user is re-read from D1 so role changes apply at once. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw notAuthenticated();
  const userId = await verifySessionToken(match[1], jwtSecret(c.env));
  if (!userId) throw notAuthenticated();
  const user = await loadCurrentUser(serviceContext(c), userId);
  if (!user) throw notAuthenticated();
  c.set("user", user);
  await next();
});
