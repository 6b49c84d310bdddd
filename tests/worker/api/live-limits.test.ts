import { describe, expect, it } from "vitest";
import type { AuthResponse } from "../../../schema/api/auth";
import {
  MAX_SOCKETS_PER_SESSION,
  SOCKET_CLOSE_POLICY_VIOLATION,
  SOCKET_MESSAGES_PER_WINDOW,
} from "../../../worker/realtime/socket-session";
import { expectError, expectStatus, login, registerOwner, type TestUser } from "../helpers";
import { connect, type OpenSocket, upgrade, within } from "../socket-helpers";

/** Opens a socket and takes its `connected` message. */
async function open(user: TestUser): Promise<OpenSocket> {
  const socket = await connect(user);
  expect(await within(socket.next())).toMatchObject({ type: "connected" });
  return socket;
}

async function pong(socket: OpenSocket) {
  socket.ws.send("ping");
  expect(await within(socket.next())).toMatchObject({ type: "pong" });
}

describe("/ws limits", () => {
  it("refuses a session's 11th socket with 429 while its 10 go on; another session still connects", async () => {
    const owner = await registerOwner("Many Tabs Solar");
    const sockets: OpenSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) sockets.push(await open(owner));

    const refused = await upgrade(`sunfleet, ${owner.token}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await expectError(refused, 429);
    expect(body.code).toBe("rate_limited");
    for (const socket of sockets) await pong(socket);

    const elsewhere = await expectStatus<AuthResponse>(await login(owner.email), 200);
    const other = await open({ ...owner, token: elsewhere.token });
    await pong(other);

    // Once one closes, the session has room again.
    const first = sockets.shift();
    first?.ws.close(1000, "tab closed");
    let again: Response | null = null;
    for (let attempt = 0; attempt < 20 && again?.status !== 101; attempt++) {
      if (again) await again.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await upgrade(`sunfleet, ${owner.token}`);
    }
    expect(again?.status).toBe(101);
    again?.webSocket?.accept();
    again?.webSocket?.close(1000, "done");
    for (const socket of [...sockets, other]) socket.ws.close(1000, "done");
  });

  it(`closes a socket that sends more than ${SOCKET_MESSAGES_PER_WINDOW} messages in 10 s with 1008`, async () => {
    const owner = await registerOwner("Chatty Solar");
    const calm = await open(owner);
    for (let i = 0; i < SOCKET_MESSAGES_PER_WINDOW; i++) await pong(calm);

    const flooding = await open(owner);
    for (let i = 0; i <= SOCKET_MESSAGES_PER_WINDOW; i++) flooding.ws.send("ping");
    const closed = await within(flooding.closed);
    expect(closed.code).toBe(SOCKET_CLOSE_POLICY_VIOLATION);
    expect(flooding.messages.filter((m) => m.type === "pong")).toHaveLength(SOCKET_MESSAGES_PER_WINDOW);

    // The socket that stayed within the limit goes on (its next message would be its 11th, so it waits).
    const stillOpen = await Promise.race([
      calm.closed.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 200)),
    ]);
    expect(stillOpen).toBe(true);
    calm.ws.close(1000, "done");
  });
});
