import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { REALTIME_GAP_MS } from "../../../worker/engines/alert-mail";
import { formatMailTime } from "../../../worker/mail/messages";
import { alertsOf, at, drive, EXPECTED_W, MIN, plant } from "../alerts/detection-fixtures";
import { addMember, BASE, call, registerOwner } from "../helpers";
import { caughtMailTo, linkIn } from "../mail-helpers";
import { failNextSends, preferencesOf, runMailAt, setPreferences } from "./fixtures";

/** A plant at 0 W under a clear sky from `from`: its no-production alert opens 30 minutes later. */
async function deadPlant(orgId: string, from: string) {
  const p = await plant(0, orgId);
  await drive(p, at(from), at(from) + 30 * MIN, () => [0]);
  return p;
}

describe("real-time alert e-mails", { timeout: 120_000 }, () => {
  it("mails each member whose preference is on, in their language and zone, and nobody else", async () => {
    const owner = await registerOwner("Mail Solar");
    const engineer = await addMember(owner, "orgEngineer");
    const quiet = await addMember(owner, "user");
    const stranger = await registerOwner("Other Solar");
    await setPreferences(owner, { language: "es", timezone: "Europe/Madrid" });
    await setPreferences(quiet, { realtimeAlerts: false });
    await deadPlant(owner.orgId, "11:00");
    await deadPlant(stranger.orgId, "11:00");
    const [alert] = await alertsOf(owner.orgId);
    const createdAt = Number((alert as unknown as { created_at: number }).created_at);

    await runMailAt(at("11:31"));
    const [toOwner, ...moreToOwner] = await caughtMailTo(owner.email);
    expect(moreToOwner).toEqual([]);
    expect(toOwner?.to).toEqual([owner.email]);
    expect(toOwner?.subject).toBe("Sunfleet: 1 alerta nueva");
    expect(toOwner?.html).toContain('lang="es"');
    expect(toOwner?.text).toContain("Crítica: Sin producción");
    // 11:30 UTC is 13:30 in Madrid (summer time).
    expect(toOwner?.text).toContain(formatMailTime(createdAt, "es", "Europe/Madrid"));
    expect(toOwner?.text).toContain("13:30");
    expect(toOwner?.text).toContain("Dejar de recibir alertas en tiempo real por correo");

    const [toEngineer] = await caughtMailTo(engineer.email);
    expect(toEngineer?.subject).toBe("Sunfleet: 1 new alert");
    expect(toEngineer?.text).toContain("Critical: No production");
    expect(toEngineer?.text).toContain("11:30");
    expect(await caughtMailTo(quiet.email)).toEqual([]);
    // The stranger hears of their own alert only.
    const toStranger = await caughtMailTo(stranger.email);
    expect(toStranger).toHaveLength(1);
    expect(toStranger[0]?.text).not.toContain("Mail Solar");
    const ownersIds = new Set((await alertsOf(owner.orgId)).map((a) => a.id));
    expect(ownersIds.size).toBe(1);
  });

  it("sends at most one mail per member per 15 minutes and batches later alerts into the next", async () => {
    const owner = await registerOwner("Batch Solar");
    await deadPlant(owner.orgId, "11:00");
    await runMailAt(at("11:31"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);

    // Two more alerts within the quarter hour: no mail until 15 minutes after the first.
    await deadPlant(owner.orgId, "11:05");
    await deadPlant(owner.orgId, "11:10");
    await runMailAt(at("11:41"));
    await runMailAt(at("11:45"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);
    await runMailAt(at("11:31") + REALTIME_GAP_MS);
    const mails = await caughtMailTo(owner.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe("Sunfleet: 2 new alerts");
    expect(mails[1]?.text.match(/Critical: No production/g)).toHaveLength(2);
    // Nothing is mailed twice.
    await runMailAt(at("12:30"));
    expect(await caughtMailTo(owner.email)).toHaveLength(2);
  });

  it("mails neither resolutions nor alerts of a member who switched the preference off meanwhile", async () => {
    const owner = await registerOwner("Late Solar");
    const p = await deadPlant(owner.orgId, "11:00");
    await setPreferences(owner, { realtimeAlerts: false });
    await drive(p, at("11:35"), at("12:00"), () => [EXPECTED_W]);
    await runMailAt(at("12:01"));
    expect(await caughtMailTo(owner.email)).toEqual([]);
  });

  it("retries a failed send from the outbox and loses no alert", async () => {
    const owner = await registerOwner("Retry Solar");
    await deadPlant(owner.orgId, "11:00");
    await failNextSends(owner.email, 1);
    await runMailAt(at("11:31"));
    expect(await caughtMailTo(owner.email)).toEqual([]);
    const row = await env.DB.prepare(
      "SELECT attempts, sent_at, next_attempt_at FROM email_outbox WHERE user_id = ? AND kind = 'realtime_alerts'",
    )
      .bind(owner.id)
      .first<{ attempts: number; sent_at: number | null; next_attempt_at: number }>();
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    await runMailAt(row?.next_attempt_at ?? 0);
    const [mail] = await caughtMailTo(owner.email);
    expect(mail?.subject).toBe("Sunfleet: 1 new alert");
  });

  it("switches the preference off from the mail's link, without signing in, once confirmed", async () => {
    const owner = await registerOwner("Unsub Solar");
    await setPreferences(owner, { language: "fr" });
    await deadPlant(owner.orgId, "11:00");
    await runMailAt(at("11:31"));
    const [mail] = await caughtMailTo(owner.email);
    if (!mail) throw new Error("no mail");
    const link = linkIn(mail, "/api/unsubscribe");
    expect(link.origin).toBe(BASE);

    // Opening the link asks; it changes nothing (mail scanners open links too).
    const page = await call(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain('lang="fr"');
    expect(pageHtml).toContain(owner.email);
    expect(pageHtml).toContain("Se désinscrire");
    expect((await preferencesOf(owner)).realtimeAlerts).toBe(true);

    const token = link.searchParams.get("token") ?? "";
    const done = await call("/api/unsubscribe", {
      method: "POST",
      rawBody: new URLSearchParams({ token }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.text()).toContain("ne reçoit plus les alertes en temps réel par e-mail");
    expect(await preferencesOf(owner)).toMatchObject({
      realtimeAlerts: false,
      weeklyDigest: true,
      monthlyReports: true,
    });

    await deadPlant(owner.orgId, "12:00");
    await runMailAt(at("13:00"));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);
  });

  it("refuses a tampered or foreign token with 400 and changes nothing", async () => {
    const owner = await registerOwner("Tamper Solar");
    await deadPlant(owner.orgId, "11:00");
    await runMailAt(at("11:31"));
    const [mail] = await caughtMailTo(owner.email);
    if (!mail) throw new Error("no mail");
    const token = linkIn(mail, "/api/unsubscribe").searchParams.get("token") ?? "";
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${payload}.${signature?.startsWith("A") ? "B" : "A"}${signature?.slice(1)}`;
    for (const bad of [tampered, owner.token]) {
      const answer = await call("/api/unsubscribe", {
        method: "POST",
        rawBody: new URLSearchParams({ token: bad }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("invalid or has expired");
    }
    expect((await call("/api/unsubscribe")).status).toBe(400);
    expect((await preferencesOf(owner)).realtimeAlerts).toBe(true);
  });
});
