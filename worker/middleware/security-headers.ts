import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "../lib/security-headers";

/** Every answer of the worker carries the security headers; HSTS only when the request came over https. */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  // A WebSocket upgrade's 101 answer has immutable headers and no document to protect.
  if (c.res.status === 101) return;
  // Answers from the assets binding have immutable headers: copy them once.
  const res = new Response(c.res.body, c.res);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.headers.set(name, value);
  if (new URL(c.req.url).protocol === "https:")
    res.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  c.res = undefined;
  c.res = res;
});
