import { LIVE_CLOSE_ACCESS_REVOKED } from "../../schema/live";
import { tooManyRequests } from "../lib/errors";

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

/** Sockets one session may hold open at once (tabs and windows of one sign-in). */
export const MAX_SOCKETS_PER_SESSION = 10;
/** When a refused socket may try again. */
const SOCKET_RETRY_AFTER_SECONDS = 30;

/**
 * The answer to one socket too many for a session, or null while it has room: the sockets
 * already open keep working and the new one waits its turn (closing the oldest instead would
 * let two tabs past the limit take turns closing each other, as the client reconnects).
 */
export function refuseBeyondSessionLimit(sessionSockets: WebSocket[], now: number): Response | null {
  if (openSockets(sessionSockets, now).length < MAX_SOCKETS_PER_SESSION) return null;
  const refused = tooManyRequests(
    `At most ${MAX_SOCKETS_PER_SESSION} live connections per session`,
    SOCKET_RETRY_AFTER_SECONDS,
  );
  return Response.json(refused.body, {
    status: refused.status,
    headers: { "Retry-After": String(SOCKET_RETRY_AFTER_SECONDS) },
  });
}

/** Messages a socket may send in one window; the client sends only an occasional `ping`. */
export const SOCKET_MESSAGES_PER_WINDOW = 10;
export const SOCKET_MESSAGE_WINDOW_MS = 10_000;
/** WebSocket's own close code for a peer that broke the rules. */
export const SOCKET_CLOSE_POLICY_VIOLATION = 1008;

interface MessageWindow {
  windowStartMs: number;
  messagesInWindow: number;
}

/**
 * Counts a message in its socket's window (kept in the attachment, so hibernation keeps it) and
 * closes the socket past the limit; answers whether it did.
 */
export function closeIfFlooding(ws: WebSocket, now: number): boolean {
  const attachment = (ws.deserializeAttachment() ?? {}) as Partial<MessageWindow>;
  const { windowStartMs = now, messagesInWindow = 0 } = attachment;
  const fresh = now - windowStartMs >= SOCKET_MESSAGE_WINDOW_MS;
  const counted: MessageWindow = {
    windowStartMs: fresh ? now : windowStartMs,
    messagesInWindow: fresh ? 1 : messagesInWindow + 1,
  };
  if (counted.messagesInWindow > SOCKET_MESSAGES_PER_WINDOW) {
    try {
      ws.close(SOCKET_CLOSE_POLICY_VIOLATION, "Too many messages");
    } catch {
      // Already closed by the peer.
    }
    return true;
  }
  ws.serializeAttachment({ ...attachment, ...counted });
  return false;
}
