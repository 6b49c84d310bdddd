import { LIVE_CLOSE_ACCESS_REVOKED } from "../../schema/live";

/**
 * What ties a live socket to the sign-in that opened it: the session (ended by logout, password
 * change or removal) and when its token expires. The worker checks both at the upgrade and hands
 * them to the Durable Object in these headers; the object keeps them with the socket.
 */
export const SOCKET_SESSION_HEADERS = {
  sessionId: "X-Sunfleet-Session",
  expiresAt: "X-Sunfleet-Token-Expires",
} as const;

export interface SocketSession {
  sessionId: string;
  /** Epoch ms when the socket's token expires. */
  tokenExpiresAt: number;
}

export function readSocketSession(headers: Headers): SocketSession | null {
  const sessionId = headers.get(SOCKET_SESSION_HEADERS.sessionId);
  const tokenExpiresAt = Number(headers.get(SOCKET_SESSION_HEADERS.expiresAt));
  if (!sessionId || !Number.isFinite(tokenExpiresAt) || tokenExpiresAt <= 0) return null;
  return { sessionId, tokenExpiresAt };
}

/** The hibernation tag of a session's sockets, so they can be found without reading every attachment. */
export const sessionTag = (sessionId: string) => `session:${sessionId}`;

export function closeSessionSocket(ws: WebSocket, reason: string): void {
  try {
    ws.close(LIVE_CLOSE_ACCESS_REVOKED, reason);
  } catch {
    // Already closed by the peer.
  }
}

/** Closes the socket if its token has expired; answers whether it did. */
export function closeIfExpired(ws: WebSocket, now: number): boolean {
  const attachment = ws.deserializeAttachment() as Partial<SocketSession> | null;
  if (typeof attachment?.tokenExpiresAt !== "number" || attachment.tokenExpiresAt > now) return false;
  closeSessionSocket(ws, "Session expired");
  return true;
}

/** Closes every socket whose token has expired; answers the sockets still open. */
export function openSockets(sockets: WebSocket[], now: number): WebSocket[] {
  return sockets.filter((ws) => !closeIfExpired(ws, now));
}
