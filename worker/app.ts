import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { ApiErrorBody } from "../schema/api/errors";
import type { AppEnv } from "./hono-env";
import { ApiError, notAuthenticated } from "./lib/errors";
import { IMPORT_PATHS, importBodyLimit, jsonBodyLimit } from "./middleware/body-limit";
import { corsPolicy } from "./middleware/cors";
import { securityHeaders } from "./middleware/security-headers";
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
import { lossesRoutes } from "./routes/losses";
import { invitesRoutes, membersRoutes, usersRoutes } from "./routes/members";
import { notificationsRoutes } from "./routes/notifications";
import { organizationRoutes } from "./routes/organization";
import { portfoliosRoutes } from "./routes/portfolios";
import { credentialsRoutes, providersRoutes, syncRunsRoutes } from "./routes/providers";
import { reportsRoutes } from "./routes/reports";
import { availableSystemsRoutes, sitesRoutes } from "./routes/sites";
import { socketRoutes } from "./routes/socket";
import { solarRoutes } from "./routes/solar";
import { systemsRoutes } from "./routes/systems";
import { timezonesRoutes } from "./routes/timezones";
import { unsubscribeRoutes } from "./routes/unsubscribe";
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
  .route("/sync-runs", syncRunsRoutes)
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
  .route("/unsubscribe", unsubscribeRoutes)
  .route("/dashboard", dashboardRoutes)
  .route("/analytics", analyticsRoutes)
  .route("/losses", lossesRoutes)
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
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return c.json(
      new ApiError({ code: "not_found", message: "Not found", details: { resource: "route" } }).body,
      404,
    );
  }
  // Everything outside /api is the single-page app.
  return c.env.ASSETS.fetch(c.req.raw);
});

/** Hono's own exceptions (malformed JSON in a validated body, for example) in the API's error union. */
function fromHttpException(error: HTTPException): ApiError {
  const message = error.message || "Bad request";
  if (error.status === 401) return notAuthenticated();
  if (error.status === 413)
    return new ApiError({ code: "payload_too_large", message, details: { maxBytes: 0 } });
  return new ApiError({
    code: "invalid_request",
    message,
    status: error.status,
    details: { reason: "malformed_body" },
  });
}

/** The one error handler: every failure leaves as `{ error, code, details? }` (`ApiErrorBody`). */
app.onError((thrown, c) => {
  const error = thrown instanceof HTTPException ? fromHttpException(thrown) : thrown;
  if (error instanceof ApiError) {
    const retryAfterSeconds = error.retryAfterSeconds;
    if (retryAfterSeconds !== undefined) c.header("Retry-After", String(retryAfterSeconds));
    const body: ApiErrorBody = error.body;
    return c.json(body, error.status);
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
  const body: ApiErrorBody = {
    error: "Internal server error",
    code: "internal_error",
    details: { requestId: c.get("requestId") },
  };
  return c.json(body, 500);
});
