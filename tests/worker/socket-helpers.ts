import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { framedMessages, type LiveFrame, type LiveMessage, liveFrameSchema } from "../../schema/live";
import { BASE, type TestUser } from "./helpers";

export const upgrade = (
  protocols: string | null,
  headers: Record<string, string> = { Upgrade: "websocket" },
) => {
  const all = new Headers(headers);
  if (protocols !== null) all.set("Sec-WebSocket-Protocol", protocols);
  return SELF.fetch(`${BASE}/ws`, { headers: all });
};

export interface OpenSocket {
  ws: WebSocket;
  messages: LiveMessage[];
  /** The frames as they arrived (a batch is one frame). */
  frames: LiveFrame[];
  /** Resolves with the next message (or the first one not yet taken). */
  next: () => Promise<LiveMessage>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens /ws the way the client does: subprotocols ["sunfleet", token]. */
export async function connect(user: TestUser): Promise<OpenSocket> {
  const res = await upgrade(`sunfleet, ${user.token}`);
  expect(res.status, `upgrade: ${res.status}`).toBe(101);
  expect(res.headers.get("Sec-WebSocket-Protocol")).toBe("sunfleet");
  const ws = res.webSocket;
  if (!ws) throw new Error("no webSocket on the 101 response");
  const messages: LiveMessage[] = [];
  const frames: LiveFrame[] = [];
  const waiting: ((message: LiveMessage) => void)[] = [];
  let taken = 0;
  ws.addEventListener("message", (event) => {
    // A frame may carry a batch: the messages are taken one by one, as the client does.
    const frame = liveFrameSchema.parse(JSON.parse(String(event.data)));
    frames.push(frame);
    for (const message of framedMessages(frame)) {
      messages.push(message);
      const resolve = waiting.shift();
      if (resolve) {
        taken++;
        resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason }));
  });
  ws.accept();
  const next = () =>
    new Promise<LiveMessage>((resolve) => {
      const pending = messages[taken];
      if (pending) {
        taken++;
        resolve(pending);
      } else {
        waiting.push(resolve);
      }
    });
  return { ws, messages, frames, next, closed };
}

/** Fails instead of hanging when an expected event never comes. */
export const within = <T>(promise: Promise<T>, ms = 2000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no event within ${ms} ms`)), ms)),
  ]);
