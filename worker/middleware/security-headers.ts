import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";
import { API_CACHE_CONTROL, SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "../lib/security-headers";

const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/**
 * Every answer of the worker carries the security headers; HSTS only when the request came over
 * https; an API answer `Cache-Control: no-store` unless its route chose its own caching.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  // A WebSocket upgrade's 101 answer has immutable headers and no document to protect.
  if (c.res.status === 101) return;
  // Answers from the assets binding have immutable headers: copy them once.
  const res = new Response(c.res.body, c.res);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.headers.set(name, value);
  const url = new URL(c.req.url);
  if (url.protocol === "https:") res.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  if (isApiPath(url.pathname) && !res.headers.has("Cache-Control"))
    res.headers.set("Cache-Control", API_CACHE_CONTROL);
  c.res = undefined;
  c.res = res;
});
