import { runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LIVE_CLOSE_ACCESS_REVOKED, type LiveMessage, MAX_WATCHED_IDS } from "../../../schema/live";
import type { FleetStore } from "../../../worker/fleet/store";
import { makeLiveUpdate } from "../../web/dashboard-fixtures";
import { connectProvider, storeLiveRows } from "../fleet-helpers";
import {
  BASE,
  call,
  createOrg,
  createRemovedUser,
  expectError,
  expectStatus,
  expiredToken,
  login,
  PASSWORD,
  sessionIdOf,
  signToken,
  tableCounts,
} from "../helpers";
import { connect, type OpenSocket, upgrade, within } from "../socket-helpers";

const hubOf = (orgId: string) => env.FLEET_STORE.get(env.FLEET_STORE.idFromName(orgId));

const connectedUsers = (orgId: string) =>
  runInDurableObject(hubOf(orgId), (hub: FleetStore) => hub.connectedUsers(orgId));

describe("/ws", () => {
  it("upgrades with subprotocols sunfleet and the token, and first says connected", async () => {
    const { engineer } = await createOrg();
    const socket = await connect(engineer);
    const first = await within(socket.next());
    expect(first).toMatchObject({ type: "connected", data: { orgId: engineer.orgId } });
    expect(first.type === "connected" && Date.parse(first.data.serverTime)).toBeGreaterThan(0);
    expect(await connectedUsers(engineer.orgId)).toEqual([engineer.id]);
    socket.ws.close(1000, "done");
  });

  it("answers ping with pong", async () => {
    const { user } = await createOrg();
    const socket = await connect(user);
    await within(socket.next());
    socket.ws.send("ping");
    expect(await within(socket.next())).toMatchObject({ type: "pong" });
    socket.ws.close(1000, "done");
  });

  it("answers 401 JSON without a token, with a bad, expired or foreign token, and writes nothing", async () => {
    const { owner } = await createOrg();
    const before = await tableCounts();
    for (const protocols of [
      null,
      "sunfleet",
      `other, ${owner.token}`,
      `sunfleet, not-a-jwt`,
      `sunfleet, ${await expiredToken(owner)}`,
      `sunfleet, ${await signToken({ sub: owner.id, sid: sessionIdOf(owner.token) }, "a-completely-different-secret-of-32-chars")}`,
      `sunfleet, ${await signToken({ sub: crypto.randomUUID(), sid: sessionIdOf(owner.token) })}`,
      `sunfleet, ${await signToken({ sub: owner.id, sid: crypto.randomUUID() })}`,
    ]) {
      const res = await upgrade(protocols);
      expect(res.webSocket, String(protocols)).toBeNull();
      await expectError(res, 401, "Not authenticated");
    }
    expect(await tableCounts()).toEqual(before);
  });

  it("does not take the token from the Authorization header or the URL", async () => {
    const { owner } = await createOrg();
    await expectError(
      await upgrade(null, { Upgrade: "websocket", Authorization: `Bearer ${owner.token}` }),
      401,
    );
    await expectError(
      await SELF.fetch(`${BASE}/ws?token=${owner.token}`, { headers: { Upgrade: "websocket" } }),
      401,
    );
  });

  it("answers 426 to a request that is not a WebSocket upgrade", async () => {
    const { owner } = await createOrg();
    await expectError(await upgrade(`sunfleet, ${owner.token}`, {}), 426);
  });

  it("answers 403 to a user without an organisation", async () => {
    const removed = await createRemovedUser();
    await expectError(await upgrade(`sunfleet, ${removed.token}`), 403);
  });

  it("closes a removed user's sockets with code 4001 and keeps everyone else's", async () => {
    const { owner, engineer, user } = await createOrg();
    const userSocket = await connect(user);
    const secondUserSocket = await connect(user);
    const engineerSocket = await connect(engineer);
    await within(userSocket.next());
    await within(secondUserSocket.next());
    await within(engineerSocket.next());
    expect((await connectedUsers(owner.orgId)).sort()).toEqual([user.id, user.id, engineer.id].sort());

    await expectStatus(await call(`/api/users/${user.id}`, { method: "DELETE", token: owner.token }), 200);

    expect(await within(userSocket.closed)).toMatchObject({ code: LIVE_CLOSE_ACCESS_REVOKED });
    expect(await within(secondUserSocket.closed)).toMatchObject({ code: LIVE_CLOSE_ACCESS_REVOKED });
    expect(await connectedUsers(owner.orgId)).toEqual([engineer.id]);
    engineerSocket.ws.send("ping");
    expect(await within(engineerSocket.next())).toMatchObject({ type: "pong" });
    // And the removed user cannot reconnect with the same token: removal ended its session.
    await expectError(await upgrade(`sunfleet, ${user.token}`), 401);
    engineerSocket.ws.close(1000, "done");
  });

  it("closes the socket of a session that signs out and keeps the same user's other session's socket", async () => {
    const { user } = await createOrg();
    const other = {
      ...user,
      token: (await expectStatus<{ token: string }>(await login(user.email), 200)).token,
    };
    const leaving = await connect(user);
    const staying = await connect(other);
    await within(leaving.next());
    await within(staying.next());

    await expectStatus(await call("/api/auth/logout", { method: "POST", token: user.token }), 200);

    expect(await within(leaving.closed)).toMatchObject({ code: LIVE_CLOSE_ACCESS_REVOKED });
    staying.ws.send("ping");
    expect(await within(staying.next())).toMatchObject({ type: "pong" });
    await expectError(await upgrade(`sunfleet, ${user.token}`), 401);
    staying.ws.close(1000, "done");
  });

  it("closes the other sessions' sockets when the password changes, keeping the changing session's", async () => {
    const { user } = await createOrg();
    const other = {
      ...user,
      token: (await expectStatus<{ token: string }>(await login(user.email), 200)).token,
    };
    const changing = await connect(user);
    const elsewhere = await connect(other);
    await within(changing.next());
    await within(elsewhere.next());

    await expectStatus(
      await call("/api/auth/password", {
        method: "POST",
        token: user.token,
        body: { currentPassword: PASSWORD, newPassword: "a brand new passphrase" },
      }),
      200,
    );

    expect(await within(elsewhere.closed)).toMatchObject({ code: LIVE_CLOSE_ACCESS_REVOKED });
    changing.ws.send("ping");
    expect(await within(changing.next())).toMatchObject({ type: "pong" });
    changing.ws.close(1000, "done");
  });

  it("closes a socket whose token has expired, and never answers it again", async () => {
    const { user } = await createOrg();
    // Two to three seconds of life (a token's exp is in whole seconds): long enough to connect and be
    // answered on a loaded machine, where `floor + 1` could leave a millisecond.
    const soon = Math.ceil(Date.now() / 1000) + 2;
    const shortLived = await signToken({ sub: user.id, sid: sessionIdOf(user.token), exp: soon });
    const socket = await connect({ ...user, token: shortLived });
    await within(socket.next());
    socket.ws.send("ping");
    expect(await within(socket.next())).toMatchObject({ type: "pong" });

    await new Promise((resolve) => setTimeout(resolve, soon * 1000 - Date.now() + 50));
    // The hub's alarm may have closed it already; if not, speaking closes it.
    try {
      socket.ws.send("ping");
    } catch {
      // Already closed.
    }

    expect(await within(socket.closed)).toMatchObject({
      code: LIVE_CLOSE_ACCESS_REVOKED,
      reason: "Session expired",
    });
    expect(socket.messages.filter((m) => m.type === "pong")).toHaveLength(1);
  });

  it("closes a silent socket when its token expires: the hub's alarm is set for it", async () => {
    const { user } = await createOrg();
    // Two to three seconds of life (a token's exp is in whole seconds): long enough to connect and be
    // answered on a loaded machine, where `floor + 1` could leave a millisecond.
    const soon = Math.ceil(Date.now() / 1000) + 2;
    const shortLived = await signToken({ sub: user.id, sid: sessionIdOf(user.token), exp: soon });
    const socket = await connect({ ...user, token: shortLived });
    await within(socket.next());
    const alarm = await runInDurableObject(hubOf(user.orgId), (_hub: FleetStore, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(soon * 1000);
    // Nothing is sent either way: the alarm alone closes it.
    expect(await within(socket.closed, 6000)).toMatchObject({
      code: LIVE_CLOSE_ACCESS_REVOKED,
      reason: "Session expired",
    });
  });

  it("keeps each organisation's sockets in its own hub", async () => {
    const a = await createOrg("Hub A");
    const b = await createOrg("Hub B");
    const socketA = await connect(a.user);
    const socketB = await connect(b.user);
    expect(await within(socketA.next())).toMatchObject({ data: { orgId: a.owner.orgId } });
    expect(await within(socketB.next())).toMatchObject({ data: { orgId: b.owner.orgId } });
    expect(await connectedUsers(a.owner.orgId)).toEqual([a.user.id]);
    expect(await connectedUsers(b.owner.orgId)).toEqual([b.user.id]);
    socketA.ws.close(1000, "done");
    socketB.ws.close(1000, "done");
  });
});

describe("live updates after a sync", () => {
  it("sends solis_realtime_update for each synced system to the organisation's sockets only", async () => {
    const { owner } = await createOrg();
    const { owner: stranger } = await createOrg();
    const mine = await connect(owner);
    const theirs = await connect(stranger);
    await within(mine.next());
    await within(theirs.next());
    await connectProvider(owner, "solis", { autoSites: true });
    // The run's progress frames come between its pages; the account's three stations come as updates.
    const updates: Awaited<ReturnType<typeof mine.next>>[] = [];
    while (updates.length < 3) {
      const message = await within(mine.next());
      if (message.type !== "sync_progress") updates.push(message);
    }
    // What the store kept (whole watts and watt-hours) is what the sockets were told.
    const { systems } = await storeLiveRows(owner.orgId);
    for (const update of updates) {
      expect(update.type).toBe("solis_realtime_update");
      if (update.type !== "solis_realtime_update") continue;
      const stored = systems.find((s) => s.id === update.data.systemId);
      expect(stored, JSON.stringify(update.data)).toBeDefined();
      expect(update.data.stationId).toBe(stored?.provider_system_id);
      expect(Math.round(update.data.powerW ?? Number.NaN)).toBe(stored?.power_w);
      expect(Math.round(update.data.energyTodayWh ?? Number.NaN)).toBe(stored?.energy_today_wh);
      expect(update.data.inverterCount).toBeGreaterThan(0);
    }
    // The other organisation's socket heard nothing after its own "connected".
    expect(theirs.messages).toHaveLength(1);
    mine.ws.close(1000, "done");
    theirs.ws.close(1000, "done");
  });
});

describe("what a socket watches", () => {
  const update = (systemId: string, siteId: string | null): LiveMessage => ({
    type: "solis_realtime_update",
    data: makeLiveUpdate({ systemId, siteId, stationId: `station-${systemId}` }),
  });
  /**
   * Sends a watch and answers the server's answer to it: `watching` once applied, or `error`.
   * (A ping sent after it is no barrier: the runtime may hand the ping over first.)
   */
  const watch = async (socket: OpenSocket, data: unknown) => {
    socket.ws.send(JSON.stringify({ type: "watch", data }));
    return within(socket.next());
  };
  const watching = (count: number | null): LiveMessage => ({ type: "watching", data: { count } });
  const systemA = crypto.randomUUID();
  const systemB = crypto.randomUUID();
  const systemC = crypto.randomUUID();
  const siteS = crypto.randomUUID();

  it("sends each socket the updates of the systems and sites it watches, and a count for the rest", async () => {
    const { owner } = await createOrg();
    const bySystem = await connect(owner);
    const everything = await connect(owner);
    const bySite = await connect(owner);
    const nothing = await connect(owner);
    const sockets = [bySystem, everything, bySite, nothing];
    for (const socket of sockets) await within(socket.next());
    expect(await watch(bySystem, { systemIds: [systemA], siteIds: [] })).toEqual(watching(1));
    expect(await watch(bySite, { systemIds: [], siteIds: [siteS] })).toEqual(watching(1));
    expect(await watch(nothing, { systemIds: [], siteIds: [] })).toEqual(watching(0));

    const page = [update(systemA, null), update(systemB, siteS), update(systemC, null)];
    const progress: LiveMessage = { type: "alerts_changed", data: { openCount: 2 } };
    const framesBefore = new Map(sockets.map((socket) => [socket, socket.frames.length]));
    const delivered = await hubOf(owner.orgId).publish(owner.orgId, [...page, progress]);

    /** The socket's first frame after the publish, its messages taken. */
    const frame = async (socket: OpenSocket) => {
      await within(socket.next());
      const arrived = socket.frames[framesBefore.get(socket) ?? -1];
      for (let taken = 1; arrived?.type === "batch" && taken < arrived.data.length; taken++) {
        await within(socket.next());
      }
      return arrived;
    };
    // One frame each: the watched systems, every other message, then the count of the rest.
    expect(await frame(bySystem)).toEqual({
      type: "batch",
      data: [page[0], progress, { type: "systems_updated", data: { count: 2 } }],
    });
    expect(await frame(bySite)).toEqual({
      type: "batch",
      data: [page[1], progress, { type: "systems_updated", data: { count: 2 } }],
    });
    expect(await frame(nothing)).toEqual({
      type: "batch",
      data: [progress, { type: "systems_updated", data: { count: 3 } }],
    });
    expect(await frame(everything)).toEqual({ type: "batch", data: [...page, progress] });
    expect(delivered).toBe(3 + 3 + 2 + 4);

    // Watching everything again (null) brings every update back.
    expect(await watch(bySystem, null)).toEqual(watching(null));
    const later = update(systemC, null);
    await hubOf(owner.orgId).publish(owner.orgId, [later]);
    expect(await within(bySystem.next())).toEqual(later);
    for (const socket of sockets) socket.ws.close(1000, "done");
  });

  it("sends a large publication in turns, each publication after the one asked for before it", async () => {
    const { owner } = await createOrg();
    const sockets = [await connect(owner), await connect(owner), await connect(owner)];
    for (const socket of sockets) await within(socket.next());
    // One frame of ~1,000 updates: several hundred KB for each socket.
    const large = Array.from({ length: 1000 }, () => update(crypto.randomUUID(), null));
    expect(JSON.stringify(large).length).toBeGreaterThan(300_000);
    const small = update(systemA, null);
    const answered = await runInDurableObject(hubOf(owner.orgId), async (store: FleetStore) => {
      const order: string[] = [];
      await Promise.all([
        store.publish(owner.orgId, large).then(() => order.push("large")),
        store.publish(owner.orgId, [small]).then(() => order.push("small")),
        // A turn of the event loop asked for after the large publication started, as another request's would be.
        new Promise((resolve) => setTimeout(resolve, 0)).then(() => order.push("turn")),
      ]);
      return order;
    });
    // The large publication gave the runtime a turn before it was sent to every socket...
    expect(answered).toEqual(["turn", "large", "small"]);
    // ...and the one asked for after it reached every socket after it.
    for (const socket of sockets) {
      for (let i = 0; i <= large.length; i++) await within(socket.next());
      expect(socket.frames.slice(1).map((frame) => (frame.type === "batch" ? frame.data.length : 1))).toEqual(
        [large.length, 1],
      );
      expect(socket.messages.at(-1)).toEqual(small);
      socket.ws.close(1000, "done");
    }
  });

  it("answers a watch it cannot take with an error and keeps the socket's previous watch", async () => {
    const { owner } = await createOrg();
    const socket = await connect(owner);
    await within(socket.next());
    expect(await watch(socket, { systemIds: [systemA], siteIds: [] })).toEqual(watching(1));
    const tooMany = Array.from({ length: MAX_WATCHED_IDS + 1 }, () => crypto.randomUUID());
    for (const refused of [{ systemIds: tooMany, siteIds: [] }, { systemIds: "all" }, 42]) {
      expect(await watch(socket, refused)).toEqual({
        type: "error",
        data: { code: "invalid_message", message: expect.any(String) },
      });
    }
    socket.ws.send("not json");
    expect(await within(socket.next())).toMatchObject({ type: "error", data: { code: "invalid_message" } });
    const watched = update(systemA, null);
    await hubOf(owner.orgId).publish(owner.orgId, [watched, update(systemB, null)]);
    expect(await within(socket.next())).toEqual(watched);
    expect(await within(socket.next())).toEqual({ type: "systems_updated", data: { count: 1 } });
    socket.ws.close(1000, "done");
  });
});
