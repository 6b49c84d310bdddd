import { DurableObject } from "cloudflare:workers";
import { LIVE_CLOSE_ACCESS_REVOKED, LIVE_SUBPROTOCOL, type LiveMessage } from "../../schema/live";
import type { Env } from "../env";

interface SocketAttachment {
  userId: string;
}

/**
 * One instance per organisation: it holds that organisation's sockets (hibernating, so idle
 * connections cost nothing) and fans published messages out to them.
 */
export class LiveHub extends DurableObject<Env> {
  /** Accepts an already-authenticated socket; the worker has checked the user and their org. */
  override async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get("X-Sunfleet-User");
    const orgId = request.headers.get("X-Sunfleet-Org");
    if (!userId || !orgId) return new Response("Missing user", { status: 400 });
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [userId]);
    server.serializeAttachment({ userId } satisfies SocketAttachment);
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

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "ping") {
      ws.send(
        JSON.stringify({
          type: "pong",
          data: { serverTime: new Date().toISOString() },
        } satisfies LiveMessage),
      );
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  /** Sends a message to every socket of the organisation; returns how many received it. */
  async publish(message: LiveMessage): Promise<number> {
    const payload = JSON.stringify(message);
    let delivered = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(payload);
        delivered++;
      } catch {
        // A socket closing mid-broadcast is not an error for the others.
      }
    }
    return delivered;
  }

  /** Sends several messages in order, serialising each once; returns the deliveries made. */
  async publishMany(messages: LiveMessage[]): Promise<number> {
    let delivered = 0;
    for (const message of messages) delivered += await this.publish(message);
    return delivered;
  }

  /** Closes a user's sockets, e.g. when they are removed from the organisation. */
  async disconnectUser(userId: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(userId);
    for (const ws of sockets) ws.close(LIVE_CLOSE_ACCESS_REVOKED, "Access revoked");
    return sockets.length;
  }

  async connectedUsers(): Promise<string[]> {
    return this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketAttachment).userId);
  }
}
