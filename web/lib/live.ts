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

/**
 * What the screens show (null: everything), the watch the open socket last got, and the one
 * waiting to go. A wider watch goes at once (0.5 s after the last), so no update of a system
 * coming on screen is missed; a narrower one once it has held for 1 s and 1.5 s after the last
 * (a page loading watches everything until its systems are known). At most 10 a 10 s: the
 * server closes a socket past that.
 */
let watch: LiveWatch = null;
let watchSent: LiveWatch = null;
let watchSentAt = 0;
let watchPending: string | null = null;
let watchTimer: ReturnType<typeof setTimeout> | null = null;
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
    watchSent = null;
    watchPending = null;
    setLiveWatch(watch);
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
  const text = watchMessage(next);
  if (text === watchPending) return;
  if (watchTimer) clearTimeout(watchTimer);
  watchTimer = null;
  watchPending = null;
  const ws = socket;
  if (ws?.readyState !== WebSocket.OPEN || text === watchMessage(watchSent)) return;
  const sent = watchSent;
  const wider =
    sent !== null &&
    (next === null ||
      next.systemIds.some((id) => !sent.systemIds.includes(id)) ||
      next.siteIds.some((id) => !sent.siteIds.includes(id)));
  const wait = wider ? watchSentAt + 500 - Date.now() : Math.max(1000, watchSentAt + 1500 - Date.now());
  watchPending = text;
  watchTimer = setTimeout(
    () => {
      watchTimer = null;
      watchPending = null;
      if (socket !== ws || ws.readyState !== WebSocket.OPEN) return;
      ws.send(text);
      watchSent = next;
      watchSentAt = Date.now();
    },
    Math.max(0, wait),
  );
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
  watchPending = null;
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
