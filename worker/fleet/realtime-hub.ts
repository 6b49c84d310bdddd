import { LIVE_CLOSE_ACCESS_REVOKED, LIVE_SUBPROTOCOL, type LiveMessage } from "../../schema/live";
import { liveClientMessageSchema } from "../../schema/live-client";
import { yieldTurn } from "../lib/yield-turn";
import {
  closeIfExpired,
  closeIfFlooding,
  closeSessionSocket,
  openSockets,
  readSocketSession,
  refuseBeyondSessionLimit,
  type SocketSession,
  sessionTag,
} from "../realtime/socket-session";
import {
  PublishFrames,
  type StoredWatch,
  storedWatchOf,
  type WatchFilter,
  watchFilterOf,
} from "../realtime/socket-watch";

/** Frame bytes handed to sockets between turns given to other requests: about one socket's frame of a 100-system page. */
const PUBLISH_BYTES_PER_TURN = 96 * 1024;

interface SocketAttachment extends SocketSession {
  userId: string;
  /** What the socket's screen shows; absent or null watches everything. */
  watch?: StoredWatch | null;
}

/**
 * The organisation's hibernating WebSockets: accepting the ones the worker authenticated,
 * answering pings, closing those whose sign-in ended, and sending live messages to all as one
 * frame. The object that stores a page publishes its live update itself.
 */
export class RealtimeHub {
  /** Each socket's filter, read from its attachment once (hibernation starts the map afresh). */
  private readonly filters = new WeakMap<WebSocket, WatchFilter>();
  /** The publication being sent: the next waits for it. */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(private readonly ctx: DurableObjectState) {}

  /**
   * Accepts an already-authenticated socket (the worker has checked the user and their org);
   * `accepted` runs once it is, before the greeting (the alarm then closes it when its token expires).
   */
  async accept(
    request: Request,
    claim: (orgId: string) => void,
    accepted: () => Promise<void>,
  ): Promise<Response> {
    const userId = request.headers.get("X-Sunfleet-User");
    const orgId = request.headers.get("X-Sunfleet-Org");
    const session = readSocketSession(request.headers);
    if (!userId || !orgId || !session) return new Response("Missing user", { status: 400 });
    claim(orgId);
    const refused = refuseBeyondSessionLimit(
      this.ctx.getWebSockets(sessionTag(session.sessionId)),
      Date.now(),
    );
    if (refused) return refused;
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [userId, sessionTag(session.sessionId)]);
    server.serializeAttachment({ userId, ...session } satisfies SocketAttachment);
    await accepted();
    server.send(
      JSON.stringify({
        type: "connected",
        data: { orgId, serverTime: new Date().toISOString() },
      } satisfies LiveMessage),
    );
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: { "Sec-WebSocket-Protocol": LIVE_SUBPROTOCOL },
    });
  }

  message(ws: WebSocket, message: string | ArrayBuffer): void {
    const now = Date.now();
    if (closeIfExpired(ws, now) || closeIfFlooding(ws, now)) return;
    if (message === "ping") {
      ws.send(
        JSON.stringify({
          type: "pong",
          data: { serverTime: new Date().toISOString() },
        } satisfies LiveMessage),
      );
      return;
    }
    const parsed = typeof message === "string" ? parseClientMessage(message) : null;
    if (!parsed?.success) {
      ws.send(
        JSON.stringify({
          type: "error",
          data: {
            code: "invalid_message",
            message: parsed?.error.issues[0]?.message ?? "Send ping or a watch message",
          },
        } satisfies LiveMessage),
      );
      return;
    }
    const stored = storedWatchOf(parsed.data.data);
    const attachment = ws.deserializeAttachment() as SocketAttachment;
    ws.serializeAttachment({ ...attachment, watch: stored } satisfies SocketAttachment);
    this.filters.set(ws, watchFilterOf(stored));
    const watch = parsed.data.data;
    ws.send(
      JSON.stringify({
        type: "watching",
        data: { count: watch ? watch.systemIds.length + watch.siteIds.length : null },
      } satisfies LiveMessage),
    );
  }

  close(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  /**
   * Sends messages to every socket of the organisation as one frame: the systems it watches and
   * a `systems_updated` for the others (each distinct frame serialised once); answers the
   * messages delivered. Publications go out one after another, in the order they were asked for.
   */
  publish(messages: LiveMessage[]): Promise<number> {
    if (messages.length === 0) return Promise.resolve(0);
    const sent = this.sending.then(() => this.send(messages));
    this.sending = sent.catch(() => 0);
    return sent;
  }

  /**
   * The runtime compresses each frame for its socket on the thread that serves every request: a
   * page to 500 sockets took 60-150 ms in one piece, so a turn is given after each
   * PUBLISH_BYTES_PER_TURN handed to sockets.
   */
  private async send(messages: LiveMessage[]): Promise<number> {
    // Sockets whose token has expired are closed on the way, so none outlives its sign-in.
    const sockets = openSockets(this.ctx.getWebSockets(), Date.now());
    const frames = new PublishFrames(messages);
    let delivered = 0;
    let bytesThisTurn = 0;
    for (const ws of sockets) {
      if (bytesThisTurn >= PUBLISH_BYTES_PER_TURN) {
        await yieldTurn();
        bytesThisTurn = 0;
      }
      const { payload, messageCount } = frames.frameFor(this.filterOf(ws));
      try {
        ws.send(payload);
        delivered += messageCount;
        bytesThisTurn += payload.length;
      } catch {
        // A socket closing mid-broadcast is not an error for the others.
      }
    }
    return delivered;
  }

  private filterOf(ws: WebSocket): WatchFilter {
    if (this.filters.has(ws)) return this.filters.get(ws) ?? null;
    const filter = watchFilterOf((ws.deserializeAttachment() as SocketAttachment | null)?.watch);
    this.filters.set(ws, filter);
    return filter;
  }

  /** Closes the sockets whose token has expired at `now`, without waiting for them to speak. */
  closeExpired(now: number): void {
    openSockets(this.ctx.getWebSockets(), now);
  }

  /** The token expiries after `now` of the open sockets: the alarm wakes for the earliest. */
  expiries(now: number): number[] {
    return this.ctx
      .getWebSockets()
      .map((ws) => (ws.deserializeAttachment() as Partial<SocketAttachment> | null)?.tokenExpiresAt)
      .filter((at): at is number => typeof at === "number" && at > now);
  }

  /** Closes a user's sockets, e.g. when they are removed from the organisation. */
  disconnectUser(userId: string): number {
    const sockets = this.ctx.getWebSockets(userId);
    for (const ws of sockets) ws.close(LIVE_CLOSE_ACCESS_REVOKED, "Access revoked");
    return sockets.length;
  }

  /** Closes the sockets of ended sessions (logout, password change, sessions ended elsewhere). */
  disconnectSessions(sessionIds: string[]): number {
    let closed = 0;
    for (const sessionId of sessionIds) {
      for (const ws of this.ctx.getWebSockets(sessionTag(sessionId))) {
        closeSessionSocket(ws, "Session ended");
        closed++;
      }
    }
    return closed;
  }

  connectedUsers(): string[] {
    return this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketAttachment).userId);
  }
}

function parseClientMessage(text: string) {
  try {
    return liveClientMessageSchema.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
}
