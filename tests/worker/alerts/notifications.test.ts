import { describe, expect, it } from "vitest";
import type { Notifications } from "../../../schema/api/notifications";
import {
  addMember,
  call,
  expectError,
  expectRejectsBadTokens,
  expectStatus,
  registerOwner,
} from "../helpers";
import { at, drive, EXPECTED_W, plant } from "./detection-fixtures";

const bell = async (token: string) =>
  expectStatus<Notifications>(await call("/api/notifications", { token }), 200);

describe("in-app notifications", { timeout: 60_000 }, () => {
  it("tells every member of the organisation of a new critical alert and of its resolution, nobody else", async () => {
    const owner = await registerOwner();
    const user = await addMember(owner, "user");
    const stranger = await registerOwner("Other Solar");
    const p = await plant(0, owner.orgId);
    await drive(p, at("11:00"), at("11:30"), () => [0]);

    for (const member of [owner, user]) {
      const { notifications, unread } = await bell(member.token);
      expect(unread).toBe(1);
      expect(notifications).toMatchObject([
        {
          kind: "alert_opened",
          rule: "no_production",
          title: "No production",
          severity: "critical",
          read: false,
        },
      ]);
    }
    expect((await bell(stranger.token)).notifications).toEqual([]);

    await drive(p, at("11:35"), at("12:00"), () => [0]);
    await drive(p, at("12:05"), at("12:30"), () => [EXPECTED_W]);
    const { notifications, unread } = await bell(user.token);
    expect(unread).toBe(2);
    expect(notifications.map((n) => [n.kind, n.rule])).toEqual([
      ["alert_resolved", "no_production"],
      ["alert_opened", "no_production"],
    ]);
    await expectRejectsBadTokens({ method: "GET", path: "/api/notifications" }, owner);
  });

  it("marks a member's own notifications read, the listed ones or all", async () => {
    const owner = await registerOwner();
    const user = await addMember(owner, "user");
    const p = await plant(0, owner.orgId);
    await drive(p, at("11:00"), at("11:30"), () => [0]);
    await drive(p, at("11:35"), at("12:00"), () => [EXPECTED_W]);
    const [resolved, opened] = (await bell(user.token)).notifications;

    const read = (token: string, body: unknown) =>
      call("/api/notifications/read", { method: "POST", token, body });
    // Another member's ids change nothing of the user's.
    const ownersOpened = (await bell(owner.token)).notifications[1];
    await expectStatus(await read(user.token, { ids: [ownersOpened?.id] }), 200);
    expect((await bell(owner.token)).unread).toBe(2);

    expect(await expectStatus(await read(user.token, { ids: [opened?.id] }), 200)).toEqual({ unread: 1 });
    expect((await bell(user.token)).notifications.map((n) => [n.id, n.read])).toEqual([
      [resolved?.id, false],
      [opened?.id, true],
    ]);
    expect(await expectStatus(await read(owner.token, {}), 200)).toEqual({ unread: 0 });
    expect((await bell(user.token)).unread).toBe(1);
    await expectError(await read(user.token, { ids: [] }), 400);
  });
});
