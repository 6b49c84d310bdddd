import { afterEach, describe, expect, it, vi } from "vitest";
import { LIVE_CLOSE_ACCESS_REVOKED, LIVE_SUBPROTOCOL } from "../../schema/live";
import { connectLive, disconnectLive, getLiveState, liveUrl, reconnectDelay } from "../../web/lib/live";
import { clearSession, setSession } from "../../web/lib/session";
import { FakeWebSocket } from "./fake-websocket";

describe("live channel", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("uses wss on https pages and ws otherwise, at /ws", () => {
    expect(liveUrl({ protocol: "https:", host: "fleet.example" })).toBe("wss://fleet.example/ws");
    expect(liveUrl({ protocol: "http:", host: "localhost:8787" })).toBe("ws://localhost:8787/ws");
  });

  it("authenticates with the token as the second subprotocol and shows Live once open", () => {
    connectLive("tok-9");
    const socket = FakeWebSocket.instances[0];
    expect(socket?.protocols).toEqual([LIVE_SUBPROTOCOL, "tok-9"]);
    expect(getLiveState().status).toBe("connecting");
    socket?.serverOpens();
    expect(getLiveState().status).toBe("live");
    connectLive("tok-9");
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("reconnects with exponential backoff after the socket drops", () => {
    vi.useFakeTimers();
    connectLive("tok-9");
    FakeWebSocket.instances[0]?.serverCloses();
    expect(getLiveState().status).toBe("reconnecting");
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.instances[1]?.serverCloses();
    vi.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);
    expect(reconnectDelay(10)).toBe(30_000);
  });

  it("stops reconnecting once the server says access was revoked", () => {
    vi.useFakeTimers();
    connectLive("tok-9");
    FakeWebSocket.instances[0]?.serverOpens();
    FakeWebSocket.instances[0]?.serverCloses(LIVE_CLOSE_ACCESS_REVOKED);
    expect(getLiveState().status).toBe("idle");
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("closes the socket and stops reconnecting on disconnect", () => {
    vi.useFakeTimers();
    connectLive("tok-9");
    const socket = FakeWebSocket.instances[0];
    disconnectLive();
    expect(socket?.closedWith).toBe(1000);
    expect(getLiveState().status).toBe("idle");
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("closes the socket when the session ends (a logout here or in another tab)", () => {
    setSession("tok-9", {
      id: "user-1",
      email: "olivia@sunco.example",
      fullName: "Olivia Owner",
      role: "orgOwner",
      companyId: "org-1",
      user_metadata: { companyName: "SunCo" },
    });
    connectLive("tok-9");
    const socket = FakeWebSocket.instances[0];
    socket?.serverOpens();
    clearSession();
    expect(socket?.closedWith).toBe(1000);
    expect(getLiveState().status).toBe("idle");
  });

  it("dates the data by the last message received", () => {
    connectLive("tok-9");
    const socket = FakeWebSocket.instances[0];
    socket?.serverOpens();
    expect(getLiveState().lastMessageAt).toBeNull();
    socket?.serverSends({ type: "solis_realtime_update", data: {} });
    expect(getLiveState().lastMessageAt).toBeTypeOf("number");
  });
});
