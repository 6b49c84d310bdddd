import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type LiveMessage, liveMessageSchema } from "../../../schema/live";
import { BASE, registerOwner } from "../helpers";
import { at, drive, EXPECTED_W, plant } from "./detection-fixtures";

/** The organisation's socket, collecting what it hears. */
async function listen(token: string) {
  const res = await SELF.fetch(`${BASE}/ws`, {
    headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": `sunfleet, ${token}` },
  });
  const ws = res.webSocket;
  if (!ws) throw new Error("no webSocket on the upgrade");
  const messages: LiveMessage[] = [];
  ws.addEventListener("message", (event) =>
    messages.push(liveMessageSchema.parse(JSON.parse(String(event.data)))),
  );
  ws.accept();
  return { ws, messages };
}

/** The alert counts heard so far, once the socket has caught up with `expected` of them. */
async function alertCounts(messages: LiveMessage[], expected: number) {
  const counts = () => messages.flatMap((m) => (m.type === "alerts_changed" ? [m.data.openCount] : []));
  for (let i = 0; i < 100 && counts().length < expected; i++) await new Promise((r) => setTimeout(r, 20));
  return counts();
}

describe("detection on the organisation's sockets", { timeout: 60_000 }, () => {
  it("publishes alerts_changed when an alert opens and resolves, not on every repeat", async () => {
    const owner = await registerOwner();
    const { ws, messages } = await listen(owner.token);
    const p = await plant(0, owner.orgId);
    await drive(p, at("11:00"), at("11:30"), () => [0]);
    expect(await alertCounts(messages, 1)).toEqual([1]);
    await drive(p, at("11:35"), at("12:00"), () => [0]);
    await drive(p, at("12:05"), at("12:30"), () => [EXPECTED_W]);
    expect(await alertCounts(messages, 2)).toEqual([1, 0]);
    ws.close();
  });
});
