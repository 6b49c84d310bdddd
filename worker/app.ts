import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { AppEnv } from "./hono-env";
import { ApiError } from "./lib/errors";
import { IMPORT_PATHS, importBodyLimit, jsonBodyLimit } from "./middleware/body-limit";
import { corsPolicy } from "./middleware/cors";
import { securityHeaders } from "./middleware/security-headers";
import { socketRoutes } from "./realtime/socket-route";
import { adminRoutes } from "./routes/admin";
import { alertRulesRoutes } from "./routes/alert-rules";
import { alertsRoutes } from "./routes/alerts";
import { analyticsRoutes } from "./routes/analytics";
import { apiKeysRoutes } from "./routes/api-keys";
import { authRoutes } from "./routes/auth";
import { dashboardRoutes, debugRoutes } from "./routes/dashboard";
import { docsRoutes, documentedApp } from "./routes/docs";
import { geocodeRoutes } from "./routes/geocode";
import { healthRoutes } from "./routes/health";
import { invitesRoutes, membersRoutes, usersRoutes } from "./routes/members";
import { notificationsRoutes } from "./routes/notifications";
import { organizationRoutes } from "./routes/organization";
import { portfoliosRoutes } from "./routes/portfolios";
import { credentialsRoutes, providersRoutes } from "./routes/providers";
import { reportsRoutes } from "./routes/reports";
import { availableSystemsRoutes, sitesRoutes } from "./routes/sites";
import { solarRoutes } from "./routes/solar";
import { systemsRoutes } from "./routes/systems";
import { timezonesRoutes } from "./routes/timezones";
import { userRoutes } from "./routes/user";
import { weatherRoutes } from "./routes/weather";

const api = new Hono<AppEnv>()
  .use(corsPolicy)
  .use((c, next) => (IMPORT_PATHS.has(c.req.path) ? importBodyLimit(c, next) : jsonBodyLimit(c, next)))
  .route("/health", healthRoutes)
  .route("/auth", authRoutes)
  .route("/user", userRoutes)
  .route("/users", usersRoutes)
  .route("/members", membersRoutes)
  .route("/organization", organizationRoutes)
  .route("/invites", invitesRoutes)
  .route("/admin", adminRoutes)
  .route("/timezones", timezonesRoutes)
  .route("/providers", providersRoutes)
  .route("/credentials", credentialsRoutes)
  .route("/sites", sitesRoutes)
  .route("/available-systems", availableSystemsRoutes)
  .route("/systems", systemsRoutes)
  .route("/portfolios", portfoliosRoutes)
  .route("/geocode", geocodeRoutes)
  .route("/solar", solarRoutes)
  .route("/weather", weatherRoutes)
  .route("/alerts", alertsRoutes)
  .route("/alert-rules", alertRulesRoutes)
  .route("/notifications", notificationsRoutes)
  .route("/dashboard", dashboardRoutes)
  .route("/analytics", analyticsRoutes)
  .route("/reports", reportsRoutes)
  .route("/api-keys", apiKeysRoutes)
  .route("/debug", debugRoutes)
  .route("/", docsRoutes);

export const app = new Hono<AppEnv>()
  .use(requestId())
  .use(securityHeaders)
  .route("/api", api)
  .route("/ws", socketRoutes);

export type AppType = typeof app;

documentedApp.current = app;

app.notFound((c) => {
  const { pathname } = new URL(c.req.url);
  if (pathname === "/api" || pathname.startsWith("/api/")) return c.json({ error: "Not found" }, 404);
  // Everything outside /api is the single-page app.
  return c.env.ASSETS.fetch(c.req.raw);
});

app.onError((error, c) => {
  if (error instanceof ApiError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    const body =
      error.details === undefined
        ? { error: error.message }
        : { error: error.message, details: error.details };
    return c.json(body, error.status);
  }
  if (error instanceof HTTPException) {
    // Hono's own 4xx (malformed JSON in a validated body, for example).
    return c.json({ error: error.message || "Bad request" }, error.status);
  }
  // Log the failure with the request id only: no bodies, headers or secrets.
  console.error(
    JSON.stringify({
      msg: "unhandled error",
      requestId: c.get("requestId"),
      path: new URL(c.req.url).pathname,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }),
  );
  return c.json({ error: "Internal server error", details: { requestId: c.get("requestId") } }, 500);
});
