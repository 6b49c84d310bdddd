import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Alert } from "../../../schema/api/alerts";
import type { Notifications } from "../../../schema/api/notifications";
import type { LiveMessage } from "../../../schema/live";
import { REALTIME_GAP_MS } from "../../../worker/engines/alert-mail";
import { formatMailTime } from "../../../worker/mail/messages";
import type { NormalisedAlarm } from "../../../worker/providers/types";
import { storeSystemsPage } from "../../../worker/sync/fleet-pages";
import { addMember, call, expectStatus, registerOwner, type TestUser } from "../helpers";
import { runMailAt, setPreferences } from "../mail/fixtures";
import { caughtMailTo, linkIn } from "../mail-helpers";
import { connect } from "../socket-helpers";
import { at, db, drive, plant } from "./detection-fixtures";
import { plantOne, plantOneAlarm } from "./vendor-alarm-fixtures";

/*
 * Vendor alarms reach members the way Sunfleet's own alerts do: a sync page that opens one
 * notifies every member in-app and queues it for the grouped real-time e-mail; a critical one the
 * vendor ends is announced resolved. Pages go through the sync's own write path.
 */

const alarm = (id: string, title: string, severity: NormalisedAlarm["severity"], startedAt: number) =>
  plantOneAlarm({ providerAlarmId: id, title, severity, startedAt });

const overvoltage = alarm("a-1", "Grid overvoltage", "critical", at("11:10"));
const stringLow = alarm("a-2", "String current low", "warning", at("11:15"));
const firmware = alarm("a-3", "Firmware updated", "info", at("11:12"));

/** One sync page of Plant One carrying these alarms, stored at `now`. */
const page = (orgId: string, alarms: NormalisedAlarm[], now: number) =>
  storeSystemsPage(
    { db, env },
    { orgId, provider: "solis", connectionId: null, now },
    { systems: [plantOne], alarms, publish: false },
  );

/** The line of a mail's text that names `title`. */
const lineOf = (text: string | undefined, title: string) =>
  (text ?? "").split("\n").find((l) => l.includes(title)) ?? "";

const bell = async (user: TestUser) =>
  expectStatus<Notifications>(await call("/api/notifications", { token: user.token }), 200);

const alertsOf = async (user: TestUser) =>
  expectStatus<Alert[]>(await call("/api/alerts?state=all", { token: user.token }), 200);

/** The open counts a socket has heard, once it has heard `expected` of them (or two seconds passed). */
async function openCounts(messages: LiveMessage[], expected: number) {
  const counts = () => messages.flatMap((m) => (m.type === "alerts_changed" ? [m.data.openCount] : []));
  for (let i = 0; i < 100 && counts().length < expected; i++) await new Promise((r) => setTimeout(r, 20));
  return counts();
}

async function setVendorAlarms(owner: TestUser, enabled: boolean) {
  await expectStatus(
    await call("/api/alert-rules", {
      method: "PATCH",
      token: owner.token,
      body: { rules: [{ rule: "vendor_alarm", enabled }] },
    }),
    200,
  );
}

describe("vendor alarms notify like Sunfleet's own alerts", { timeout: 120_000 }, () => {
  it("notifies every member of a new warning or critical vendor alarm, in-app and in the grouped real-time mail", async () => {
    const owner = await registerOwner("Vendor Solar");
    const engineer = await addMember(owner, "orgEngineer");
    const stranger = await registerOwner("Other Solar");
    await setPreferences(owner, { language: "es", timezone: "Europe/Madrid" });
    // A rule's alert in the same quarter hour: a plant at 0 W under a clear sky from 11:00.
    const dead = await plant(0, owner.orgId);
    await drive(dead, at("11:00"), at("11:30"), () => [0]);
    await page(owner.orgId, [overvoltage, stringLow, firmware], at("11:20"));

    for (const member of [owner, engineer]) {
      const { notifications, unread } = await bell(member);
      expect(unread).toBe(3);
      expect(notifications.map((n) => [n.kind, n.title, n.severity])).toEqual([
        ["alert_opened", "No production", "critical"],
        ["alert_opened", "String current low", "warning"],
        ["alert_opened", "Grid overvoltage", "critical"],
      ]);
    }
    expect((await bell(stranger)).notifications).toEqual([]);
    // The info alarm is an alert on the Alerts screen, but nobody is told of it.
    expect((await alertsOf(owner)).map((a) => a.title).sort()).toEqual([
      "Firmware updated",
      "Grid overvoltage",
      "No production",
      "String current low",
    ]);

    // The same alarms in the next pages are not news.
    await page(owner.orgId, [overvoltage, stringLow, firmware], at("11:25"));
    expect((await bell(owner)).notifications).toHaveLength(3);

    await runMailAt(at("11:31"));
    const [toOwner, ...moreToOwner] = await caughtMailTo(owner.email);
    expect(moreToOwner).toEqual([]);
    expect(toOwner?.subject).toBe("Sunfleet: 3 alertas nuevas");
    // Where and since when (the vendor's start), in the member's zone: 11:10 UTC is 13:10 in Madrid.
    const line = lineOf(toOwner?.text, "Grid overvoltage");
    expect(line).toContain(
      `Crítica: Grid overvoltage — Plant One, desde ${formatMailTime(at("11:10"), "es", "Europe/Madrid")}`,
    );
    expect(line).toContain("13:10");
    expect(lineOf(toOwner?.text, "String current low")).toContain("Advertencia: String current low — ");
    // Sunfleet's rules are named in the reader's language; a vendor's alarm keeps the vendor's words.
    expect(toOwner?.text).toContain("Crítica: Sin producción");
    expect(toOwner?.text).not.toContain("Firmware updated");
    expect(toOwner?.text).toContain("Dejar de recibir alertas en tiempo real por correo");
    expect(
      linkIn(toOwner as NonNullable<typeof toOwner>, "/api/unsubscribe").searchParams.get("token"),
    ).toBeTruthy();
    const [toEngineer] = await caughtMailTo(engineer.email);
    expect(toEngineer?.subject).toBe("Sunfleet: 3 new alerts");
    expect(lineOf(toEngineer?.text, "Grid overvoltage")).toContain("Critical: Grid overvoltage — ");
    expect(await caughtMailTo(stranger.email)).toEqual([]);

    // A vendor alarm ten minutes later waits for the quarter hour since the last mail.
    const frequency = alarm("a-4", "Grid frequency out of range", "critical", at("11:38"));
    await page(owner.orgId, [overvoltage, stringLow, frequency], at("11:40"));
    await runMailAt(at("11:41"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);
    await runMailAt(at("11:31") + REALTIME_GAP_MS);
    const mails = await caughtMailTo(owner.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe("Sunfleet: 1 alerta nueva");
    expect(lineOf(mails[1]?.text, "Grid frequency")).toContain("Crítica: Grid frequency out of range — ");
  });

  it("announces a critical vendor alarm the vendor ended as resolved, in-app only, once", async () => {
    const owner = await registerOwner("Resolve Solar");
    await page(owner.orgId, [overvoltage, stringLow], at("11:20"));
    await runMailAt(at("11:21"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);

    const ended = (a: NormalisedAlarm) => ({ ...a, endedAt: at("11:50") });
    await page(owner.orgId, [ended(overvoltage), ended(stringLow)], at("11:55"));
    await page(owner.orgId, [ended(overvoltage), ended(stringLow)], at("12:00"));
    const { notifications } = await bell(owner);
    // The warning's end is not announced; the critical one's is, at the vendor's end time.
    expect(notifications.map((n) => [n.kind, n.title, n.severity, n.createdAt])).toEqual([
      ["alert_resolved", "Grid overvoltage resolved", "critical", new Date(at("11:50")).toISOString()],
      ["alert_opened", "String current low", "warning", new Date(at("11:15")).toISOString()],
      ["alert_opened", "Grid overvoltage", "critical", new Date(at("11:10")).toISOString()],
    ]);
    // Resolutions are not mailed.
    await runMailAt(at("13:00"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);
  });

  it("tells the organisation's sockets the open count when a page opens or ends vendor alarms, not on repeats", async () => {
    const owner = await registerOwner("Live Solar");
    const socket = await connect(owner);
    await page(owner.orgId, [overvoltage, stringLow], at("11:20"));
    expect(await openCounts(socket.messages, 1)).toEqual([2]);
    await page(owner.orgId, [overvoltage, stringLow], at("11:25"));
    await page(owner.orgId, [{ ...overvoltage, endedAt: at("11:50") }, stringLow], at("11:55"));
    expect(await openCounts(socket.messages, 2)).toEqual([2, 1]);
    socket.ws.close();
  });

  it("announces nothing for an alarm first seen already ended", async () => {
    const owner = await registerOwner("History Solar");
    await page(owner.orgId, [{ ...overvoltage, endedAt: at("11:15") }], at("11:20"));
    expect((await alertsOf(owner)).map((a) => [a.title, a.resolved])).toEqual([["Grid overvoltage", true]]);
    expect((await bell(owner)).notifications).toEqual([]);
  });

  it("with the vendor_alarm rule off stores no new vendor alarm and tells nobody; the vendor's end still closes one stored before", async () => {
    const owner = await registerOwner("Quiet Solar");
    await page(owner.orgId, [overvoltage], at("11:20"));
    await setVendorAlarms(owner, false);

    const frequency = alarm("a-4", "Grid frequency out of range", "critical", at("11:38"));
    await page(owner.orgId, [{ ...overvoltage, endedAt: at("11:50") }, frequency], at("11:55"));
    expect((await alertsOf(owner)).map((a) => [a.title, a.resolved])).toEqual([["Grid overvoltage", true]]);
    const { notifications } = await bell(owner);
    expect(notifications.map((n) => [n.kind, n.title])).toEqual([["alert_opened", "Grid overvoltage"]]);

    // Switched on again, the vendor's still-open alarm is stored and announced on its next page.
    await setVendorAlarms(owner, true);
    await page(owner.orgId, [frequency], at("12:00"));
    expect((await alertsOf(owner)).map((a) => [a.title, a.resolved]).sort()).toEqual([
      ["Grid frequency out of range", false],
      ["Grid overvoltage", true],
    ]);
    expect((await bell(owner)).notifications.map((n) => [n.kind, n.title])).toEqual([
      ["alert_opened", "Grid frequency out of range"],
      ["alert_opened", "Grid overvoltage"],
    ]);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM alerts WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(row?.n).toBe(2);
  });
});
