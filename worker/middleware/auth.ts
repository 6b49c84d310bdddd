import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";
import { serviceContext } from "../hono-env";
import { forbidden, notAuthenticated } from "../lib/errors";
import { API_KEY_PREFIX, auditApiKeyWrite, authenticateApiKey } from "../services/api-keys";
import { authenticate } from "../services/sessions";

/** Areas no API key reaches whatever its scope: accounts, members, invites, keys, settings. */
const KEYLESS_PREFIXES = [
  "/api/auth",
  "/api/user",
  "/api/users",
  "/api/members",
  "/api/invites",
  "/api/api-keys",
  "/api/organization",
  "/api/admin",
];
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const keyless = (path: string) =>
  KEYLESS_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Bearer-token authentication: the token's session must still exist, and the user is re-read
 * from D1 with it, so logouts, removals and role changes apply at once. An organisation API key
 * (`sfk_…`) is looked up by its hash on every request, so a revoked key fails at once.
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("Authorization");
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw notAuthenticated();
  const ctx = serviceContext(c);
  if (match[1].startsWith(API_KEY_PREFIX)) {
    const authenticated = await authenticateApiKey(ctx, match[1]);
    if (!authenticated) throw notAuthenticated();
    if (keyless(c.req.path)) throw forbidden("api_key_endpoint", "API keys cannot use this endpoint");
    const { caller } = authenticated;
    c.set("user", caller);
    c.set("orgVersions", authenticated.orgVersions);
    await next();
    if (caller.apiKey?.scope === "write" && !READ_METHODS.has(c.req.method)) {
      await auditApiKeyWrite(ctx, caller, { method: c.req.method, path: c.req.path, status: c.res.status });
    }
    return;
  }
  const caller = await authenticate(ctx, match[1]);
  if (!caller) throw notAuthenticated();
  c.set("user", caller.user);
  c.set("sessionId", caller.sessionId);
  c.set("tokenExpiresAt", caller.tokenExpiresAt);
  c.set("orgVersions", caller.orgVersions);
  await next();
});
