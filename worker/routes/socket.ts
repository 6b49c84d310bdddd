import { Hono } from "hono";
import { LIVE_SUBPROTOCOL } from "../../schema/live";
import { type AppEnv, serviceContext } from "../hono-env";
import { ApiError, notAuthenticated } from "../lib/errors";
import { fleetStoreFor } from "../lib/fleet-store";
import { SOCKET_SESSION_HEADERS } from "../realtime/socket-session";
import { authenticate } from "../services/sessions";

/**
 * `/ws`: the token travels as a WebSocket subprotocol (`sunfleet, <token>`) rather than in the
 * URL, where proxies would log it.
 */
export const socketRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw new ApiError({ code: "upgrade_required", message: "Expected a WebSocket upgrade" });
  }
  const offered = (c.req.header("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
  const token = offered[0] === LIVE_SUBPROTOCOL ? offered[1] : undefined;
  if (!token) throw notAuthenticated();
  const caller = await authenticate(serviceContext(c), token);
  if (!caller) throw notAuthenticated();
  const { user } = caller;
  if (!user.orgId) {
    throw new ApiError({ code: "onboarding_required", message: "Complete your organisation setup first" });
  }
  const hub = fleetStoreFor(c.env, user.orgId);
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-Sunfleet-User", user.id);
  headers.set("X-Sunfleet-Org", user.orgId);
  headers.set(SOCKET_SESSION_HEADERS.sessionId, caller.sessionId);
  headers.set(SOCKET_SESSION_HEADERS.expiresAt, String(caller.tokenExpiresAt));
  return hub.fetch(new Request(c.req.raw.url, { headers }));
});
