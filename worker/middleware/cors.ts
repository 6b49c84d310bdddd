import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../hono-env";

/** The configured origins (CORS_ORIGINS, comma-separated); empty = same origin only. */
export function allowedOrigins(setting: string | undefined): string[] {
  return (setting ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter((origin) => origin.length > 0);
}

/**
 * Cross-origin calls are refused unless their origin is configured: without CORS_ORIGINS the API
 * sends no CORS headers at all, so browsers keep other sites' scripts out.
 */
export const corsPolicy = createMiddleware<AppEnv>(async (c, next) => {
  const origins = allowedOrigins(c.env.CORS_ORIGINS);
  if (origins.length === 0) return next();
  return cors({
    origin: (origin) => (origins.includes(origin) ? origin : null),
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowHeaders: ["Authorization", "Content-Type"],
    maxAge: 600,
  })(c, next);
});
