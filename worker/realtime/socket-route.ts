import { Hono } from "hono";
import { LIVE_SUBPROTOCOL } from "../../schema/live";
import { type AppEnv, serviceContext } from "../hono-env";
import { ApiError, notAuthenticated } from "../lib/errors";
import { jwtSecret } from "../lib/secrets";
import { verifySessionToken } from "../lib/tokens";
import { loadCurrentUser } from "../services/auth";
import { fleetStoreFor } from "../services/fleet-store";

/**
 * `/ws`: the token travels as a WebSocket subprotocol (`sunfleet, <token>`) rather than in the
 * URL, where proxies would log it.
 */
export const socketRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    throw new ApiError(426, "Expected a WebSocket upgrade");
  }
  const offered = (c.req.header("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
  const token = offered[0] === LIVE_SUBPROTOCOL ? offered[1] : undefined;
  if (!token) throw notAuthenticated();
  const userId = await verifySessionToken(token, jwtSecret(c.env));
  const user = userId ? await loadCurrentUser(serviceContext(c), userId) : null;
  if (!user) throw notAuthenticated();
  if (!user.orgId) throw new ApiError(403, "Complete your organisation setup first");
  const hub = fleetStoreFor(c.env, user.orgId);
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-Sunfleet-User", user.id);
  headers.set("X-Sunfleet-Org", user.orgId);
  return hub.fetch(new Request(c.req.raw.url, { headers }));
});
