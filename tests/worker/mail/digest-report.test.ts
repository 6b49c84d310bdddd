import { describe, expect, it } from "vitest";
import { DEFAULT_CALIBRATION } from "../../../worker/domain/solar/pv-model";
import { referenceWhPerKw } from "../../../worker/domain/solar/reference-yield";
import { formatMailEnergy, formatMailPercent } from "../../../worker/mail/messages";
import { seedDailyRollups, seedHourlyRollups } from "../fleet-helpers";
import { addMember, call, registerOwner } from "../helpers";
import { caughtMailTo, linkIn } from "../mail-helpers";
import {
  insertAlert,
  preferencesOf,
  runMailAt,
  seedIrradiance,
  seedPortfolio,
  seedSite,
  setPreferences,
} from "./fixtures";

const WEEK = [15, 16, 17, 18, 19, 20, 21];
/** Expected energy of a 10 kW system over the seeded week: 800 W/m² for 10 hours a day. */
/** The one model's expectation of a 10 kW system at 52.37,4.90 over the seeded week (PVWatts' calibration). */
const EXPECTED_WEEK_WH = Math.round(
  10 *
    DEFAULT_CALIBRATION *
    referenceWhPerKw(
      { latitude: 52.37, longitude: 4.9 },
      WEEK.flatMap((d) =>
        Array.from({ length: 24 }, (_, h) => ({
          hourStart: Date.UTC(2026, 5, d, h),
          ghiWm2: h >= 7 && h < 17 ? 800 : 0,
          directWm2: null,
          diffuseWm2: null,
          airC: null,
          windMs: null,
          precipitationMm: null,
        })),
      ),
    ),
);
const day = (d: number) => `2026-06-${String(d).padStart(2, "0")}`;

/**
 * Two sites in Amsterdam during 15–21 June 2026: "North" makes 30 kWh a day and produced in half
 * of the daylight hours, "South" 60 kWh a day in all of them; both belong to portfolio "All".
 * One alert opened (and closed) in the week with 5 kWh lost, one opened before and closed in it.
 */
async function seededFleet(companyName: string) {
  const owner = await registerOwner(companyName);
  const north = await seedSite(owner.orgId, "North");
  const south = await seedSite(owner.orgId, "South");
  await seedPortfolio(owner.orgId, "All", [north.siteId, south.siteId]);
  await seedIrradiance(WEEK, 800);
  await seedDailyRollups(
    north.systemId,
    WEEK.map((d) => [day(d), 30_000]),
  );
  await seedDailyRollups(
    south.systemId,
    WEEK.map((d) => [day(d), 60_000]),
  );
  const hours = WEEK.flatMap((d) => Array.from({ length: 10 }, (_, h) => Date.UTC(2026, 5, d, 7 + h)));
  await seedHourlyRollups(
    north.systemId,
    hours.map((h, i) => [h, i % 2 === 0 ? 3000 : 0]),
  );
  await seedHourlyRollups(
    south.systemId,
    hours.map((h) => [h, 6000]),
  );
  await insertAlert(owner.orgId, north.systemId, {
    createdAt: Date.UTC(2026, 5, 16, 10),
    resolvedAt: Date.UTC(2026, 5, 17, 10),
    lostWh: 5000,
  });
  await insertAlert(owner.orgId, south.systemId, {
    createdAt: Date.UTC(2026, 5, 10, 10),
    resolvedAt: Date.UTC(2026, 5, 16, 12),
    lostWh: 900,
  });
  return { owner, north, south };
}

describe("weekly digest", { timeout: 120_000 }, () => {
  it("goes out on Monday 08:00 in each member's zone, once per week, with last week's figures", async () => {
    const { owner } = await seededFleet("Digest Solar");
    const member = await addMember(owner, "user");
    const stranger = await registerOwner("Elsewhere Solar");
    await setPreferences(owner, { timezone: "Europe/Madrid", language: "fr" });
    await setPreferences(member, { timezone: "America/New_York" });

    // Monday 22 June, 07:55 in Madrid: nothing yet.
    await runMailAt(Date.UTC(2026, 5, 22, 5, 55));
    expect(await caughtMailTo(owner.email)).toEqual([]);
    // 08:00 in Madrid, 02:00 in New York.
    await runMailAt(Date.UTC(2026, 5, 22, 6, 0));
    await runMailAt(Date.UTC(2026, 5, 22, 6, 5));
    const toOwner = await caughtMailTo(owner.email);
    expect(toOwner).toHaveLength(1);
    expect(await caughtMailTo(member.email)).toEqual([]);
    const [digest] = toOwner;
    expect(digest?.html).toContain('lang="fr"');
    expect(digest?.subject).toBe("Résumé hebdomadaire Sunfleet, 15 juin 2026 – 21 juin 2026");
    const text = digest?.text ?? "";
    expect(text).toContain("Alertes : 1 ouvertes, 2 fermées.");
    expect(text).toContain(`Énergie perdue sur alertes : ${formatMailEnergy(5000, "fr")}.`);
    const north = `North | ${formatMailEnergy(210_000, "fr")} | ${formatMailEnergy(EXPECTED_WEEK_WH, "fr")} | ${formatMailPercent(210_000 / EXPECTED_WEEK_WH, "fr")} | ${formatMailEnergy(5000, "fr")}`;
    const south = `South | ${formatMailEnergy(420_000, "fr")} | ${formatMailEnergy(EXPECTED_WEEK_WH, "fr")} | ${formatMailPercent(420_000 / EXPECTED_WEEK_WH, "fr")} | ${formatMailEnergy(0, "fr")}`;
    const all = `All | ${formatMailEnergy(630_000, "fr")} | ${formatMailEnergy(2 * EXPECTED_WEEK_WH, "fr")} | ${formatMailPercent(630_000 / (2 * EXPECTED_WEEK_WH), "fr")}`;
    expect(text).toContain(`Portefeuilles\nNom | Énergie | Attendue | PR\n${all}`);
    expect(text).toContain(`Sites\nNom | Énergie | Attendue | PR | Énergie perdue\n${north}\n${south}`);
    // The worst performer comes first.
    expect(text).toContain(
      `Les cinq moins performants\nNom | Énergie | Attendue | PR | Énergie perdue\n${north}\n${south}`,
    );
    if (!digest) throw new Error("no digest");
    expect(linkIn(digest, "/api/unsubscribe").searchParams.get("token")).toBeTruthy();

    // 08:00 in New York; the stranger's organisation has no sites and nothing of this one.
    await runMailAt(Date.UTC(2026, 5, 22, 12, 0));
    const [toMember, ...more] = await caughtMailTo(member.email);
    expect(more).toEqual([]);
    expect(toMember?.subject).toBe("Sunfleet weekly digest, Jun 15, 2026 – Jun 21, 2026");
    expect(toMember?.text).toContain("Times are in America/New_York.");
    const [toStranger] = await caughtMailTo(stranger.email);
    expect(toStranger?.text).not.toContain("North");
    expect(toStranger?.text).toContain("Alerts: 0 opened, 0 closed.");
  });

  it("is sent to nobody whose digest preference is off, and its link switches it off", async () => {
    const { owner } = await seededFleet("Quiet Digest Solar");
    const member = await addMember(owner, "user");
    await setPreferences(member, { weeklyDigest: false });
    await runMailAt(Date.UTC(2026, 5, 22, 8, 0));
    expect(await caughtMailTo(member.email)).toEqual([]);
    const [digest] = await caughtMailTo(owner.email);
    if (!digest) throw new Error("no digest");
    const token = linkIn(digest, "/api/unsubscribe").searchParams.get("token") ?? "";
    const done = await call("/api/unsubscribe", {
      method: "POST",
      rawBody: new URLSearchParams({ token }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(done.status).toBe(200);
    expect(await preferencesOf(owner)).toMatchObject({ weeklyDigest: false, realtimeAlerts: true });
    await runMailAt(Date.UTC(2026, 5, 29, 8, 0));
    expect(await caughtMailTo(owner.email)).toHaveLength(1);
  });
});

describe("monthly report", { timeout: 120_000 }, () => {
  it("goes out on the 1st at 08:00 with energy, PR, availability and lost energy per site and a CSV", async () => {
    const { owner, north, south } = await seededFleet("Report Solar");
    await setPreferences(owner, { timezone: "Europe/Madrid", language: "es" });
    await runMailAt(Date.UTC(2026, 6, 1, 5, 55));
    expect((await caughtMailTo(owner.email)).filter((m) => m.attachments.length > 0)).toEqual([]);
    await runMailAt(Date.UTC(2026, 6, 1, 6, 0));
    await runMailAt(Date.UTC(2026, 6, 1, 9, 0));
    const reports = (await caughtMailTo(owner.email)).filter((m) => m.subject.includes("Informe mensual"));
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report?.subject).toBe("Informe mensual de Sunfleet, junio 2026");
    expect(report?.text).toContain(
      `North | ${formatMailEnergy(210_000, "es")} | ${formatMailEnergy(EXPECTED_WEEK_WH, "es")} | ${formatMailPercent(210_000 / EXPECTED_WEEK_WH, "es")} | ${formatMailPercent(0.5, "es")} | ${formatMailEnergy(5000, "es")}`,
    );
    expect(report?.attachments.map((a) => a.filename)).toEqual(["sunfleet-report-2026-06.csv"]);
    const csv = new TextDecoder().decode(
      Uint8Array.from(atob(report?.attachments[0]?.content ?? ""), (c) => c.charCodeAt(0)),
    );
    const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      "month,site id,site,energy (Wh),expected (Wh),performance ratio,availability,energy lost (Wh),losses (kWh),lost value,currency,main cause",
    );
    const pr = (wh: number) => Math.round((wh / EXPECTED_WEEK_WH) * 1000) / 1000;
    // The sites have no loss account (tests/worker/mail/report-losses.test.ts has them): those cells are empty.
    expect(lines.slice(1)).toEqual([
      `2026-06,${north.siteId},North,210000,${EXPECTED_WEEK_WH},${pr(210_000)},0.5,5000,,,,`,
      `2026-06,${south.siteId},South,420000,${EXPECTED_WEEK_WH},${pr(420_000)},1,900,,,,`,
    ]);
  });
});
