import { useSyncExternalStore } from "react";
import {
  framedMessages,
  LIVE_CLOSE_ACCESS_REVOKED,
  LIVE_SUBPROTOCOL,
  type LiveMessage,
  liveFrameSchema,
} from "../../schema/live";
import type { LiveClientMessage, LiveWatch } from "../../schema/live-client";
import { getSession, subscribeSession } from "./session";

/** The one live channel of the app: a WebSocket at /ws, authenticated by its subprotocol. */
export type LiveStatus = "idle" | "connecting" | "live" | "reconnecting";

export interface LiveState {
  status: LiveStatus;
  /** Epoch ms of the last message received, null before the first. */
  lastMessageAt: number | null;
}

const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

let state: LiveState = { status: "idle", lastMessageAt: null };
const stateListeners = new Set<() => void>();
const messageListeners = new Set<(message: LiveMessage) => void>();

let socket: WebSocket | null = null;
let currentToken: string | null = null;
let attempt = 0;
let reconnectTimer: ReturnType<typeof setTimeout> | null = null;

/** What the screens show (null: everything), and the watch message the open socket last got. */
let watch: LiveWatch = null;
let watchSent: string | null = null;
let watchTimer: ReturnType<typeof setTimeout> | null = null;
/** The server closes a socket past 10 messages in 10 s: a changed watch goes after 1.5 s at most once. */
const WATCH_SPACING_MS = 1500;
const watchMessage = (data: LiveWatch) => JSON.stringify({ type: "watch", data } satisfies LiveClientMessage);

function setState(patch: Partial<LiveState>): void {
  state = { ...state, ...patch };
  for (const listener of stateListeners) listener();
}

export function liveUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function reconnectDelay(attemptIndex: number): number {
  return Math.min(INITIAL_BACKOFF_MS * 2 ** attemptIndex, MAX_BACKOFF_MS);
}

function open(): void {
  if (!currentToken) return;
  // Browsers cannot set headers on a WebSocket, so the token travels as the second subprotocol.
  const ws = new WebSocket(liveUrl(window.location), [LIVE_SUBPROTOCOL, currentToken]);
  socket = ws;
  ws.onopen = () => {
    attempt = 0;
    setState({ status: "live" });
    // A new socket watches everything until told otherwise.
    watchSent = watchMessage(null);
    sendWatch();
  };
  // Any arrival dates the data; only messages of the shared union reach the subscribers.
  ws.onmessage = (event: MessageEvent) => {
    setState({ lastMessageAt: Date.now() });
    for (const message of parseLiveFrame(event.data)) {
      for (const listener of messageListeners) listener(message);
    }
  };
  ws.onclose = (event: CloseEvent) => {
    if (socket !== ws) return;
    socket = null;
    // Removed from the organisation: reconnecting would only be refused again.
    if (event.code === LIVE_CLOSE_ACCESS_REVOKED) {
      currentToken = null;
      setState({ status: "idle" });
      return;
    }
    scheduleReconnect();
  };
}

/** Tells the server which systems the screens show, so the socket carries only their updates. */
export function setLiveWatch(next: LiveWatch): void {
  watch = next;
  watchTimer ??= setTimeout(sendWatch, WATCH_SPACING_MS);
}

function sendWatch(): void {
  watchTimer = null;
  const text = watchMessage(watch);
  if (socket?.readyState !== WebSocket.OPEN || text === watchSent) return;
  socket.send(text);
  watchSent = text;
}

function scheduleReconnect(): void {
  if (!currentToken) return;
  setState({ status: "reconnecting" });
  const delay = reconnectDelay(attempt);
  attempt += 1;
  reconnectTimer = setTimeout(() => {
    reconnectTimer = null;
    open();
  }, delay);
}

/** Opens the socket for this token; a second call with the same token keeps the existing one. */
export function connectLive(token: string): void {
  if (currentToken === token && (socket || reconnectTimer)) return;
  disconnectLive();
  currentToken = token;
  attempt = 0;
  setState({ status: "connecting" });
  open();
}

export function disconnectLive(): void {
  currentToken = null;
  if (reconnectTimer) clearTimeout(reconnectTimer);
  reconnectTimer = null;
  if (watchTimer) clearTimeout(watchTimer);
  watchTimer = null;
  const ws = socket;
  socket = null;
  if (ws) {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, "logout");
  }
  if (state.status !== "idle") setState({ status: "idle" });
}

// Signing out (here or in another tab) closes the socket.
subscribeSession(() => {
  if (getSession().token === null) disconnectLive();
});

function parseLiveFrame(data: unknown): LiveMessage[] {
  if (typeof data !== "string") return [];
  try {
    const parsed = liveFrameSchema.safeParse(JSON.parse(data));
    return parsed.success ? framedMessages(parsed.data) : [];
  } catch {
    return [];
  }
}

/** Receives every valid message of the one socket; returns the unsubscribe function. */
export function subscribeLiveMessages(listener: (message: LiveMessage) => void): () => void {
  messageListeners.add(listener);
  return () => {
    messageListeners.delete(listener);
  };
}

function subscribeLiveState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

export function getLiveState(): LiveState {
  return state;
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribeLiveState, getLiveState, getLiveState);
}
