import { describe, expect, it } from "vitest";
import { formatMailEnergy, formatMailMoney, formatMailPercent } from "../../../worker/mail/messages";
import { type LossAccountSeed, seedLossAccounts } from "../fleet-helpers";
import { call, expectStatus, putOrgTariff, registerOwner } from "../helpers";
import { caughtMailTo } from "../mail-helpers";
import { runMailAt, seedSite, setPreferences } from "./fixtures";

const WEEK = [15, 16, 17, 18, 19, 20, 21];
const day = (d: number) => `2026-06-${String(d).padStart(2, "0")}`;

/** A system's loss account of each given day of June 2026 (Wh). */
const seedAccounts = (orgId: string, systemId: string, days: number[], account: LossAccountSeed) =>
  seedLossAccounts(orgId, systemId, days.map(day), account);

const reportOf = async (email: string) => {
  const [report, ...more] = (await caughtMailTo(email)).filter((mail) => mail.attachments.length > 0);
  expect(more).toEqual([]);
  if (!report) throw new Error("no monthly report");
  return report;
};

const csvOf = (report: { attachments: { content: string }[] }) =>
  new TextDecoder()
    .decode(Uint8Array.from(atob(report.attachments[0]?.content ?? ""), (c) => c.charCodeAt(0)))
    .replace(/^\uFEFF/, "")
    .split("\r\n");

describe("the monthly report's losses", { timeout: 120_000 }, () => {
  it("gives the fleet's losses, their value at the dated prices, the recoverable part, the weather beside and the sites that lost most", async () => {
    const owner = await registerOwner("Losses Report Solar");
    await setPreferences(owner, { timezone: "Europe/Madrid", language: "en" });
    const north = await seedSite(owner.orgId, "North");
    const south = await seedSite(owner.orgId, "South");
    // €0.20 by default; South's own €0.30 from 16 June, so its 15 June keeps €0.20.
    await expectStatus(await putOrgTariff(owner, { currency: "EUR", pricePerKwh: 0.2 }), 200);
    await expectStatus(
      await call(`/api/sites/${south.siteId}/tariff`, {
        method: "PUT",
        token: owner.token,
        body: { currency: "EUR", pricePerKwh: 0.3, validFrom: "2026-06-16" },
      }),
      200,
    );
    // North: 11.5 kWh a day lost, mostly downtime; South: 5 kWh a day, mostly one inverter down.
    await seedAccounts(owner.orgId, north.systemId, WEEK, {
      expected: 50_000,
      weather: 5000,
      downtime: 10_000,
      soiling: 1000,
      underperformance: 500,
    });
    await seedAccounts(owner.orgId, south.systemId, WEEK, {
      expected: 60_000,
      clipping: 2000,
      partialOutage: 3000,
    });

    await runMailAt(Date.UTC(2026, 6, 1, 6, 0));
    const report = await reportOf(owner.email);
    const text = report.text;
    const expected = 7 * 110_000;
    const lost = 7 * 16_500;
    // Downtime, soiling, underperformance and the inverter down; clipping is the design's.
    const recoverable = 7 * 14_500;
    expect(text).toContain(
      `Losses: ${formatMailEnergy(lost, "en")} lost, ${formatMailPercent(lost / expected, "en")} of the ${formatMailEnergy(expected, "en")} expected.`,
    );
    expect(text).toContain(
      `Recoverable (downtime, partial outages, soiling, underperformance): ${formatMailEnergy(recoverable, "en")}, ${formatMailPercent(recoverable / expected, "en")} of the expected energy.`,
    );
    // North 80.5 kWh at €0.20 = €16.10; South 5 kWh at €0.20, then 30 kWh at €0.30 = €10.00.
    expect(text).toContain("What the losses cost: €26.10.");
    expect(text).toContain(`Beside the losses, the weather took ${formatMailEnergy(35_000, "en")}`);
    expect(text).toContain(
      [
        "Sites that lost most",
        "Site | Lost energy | Lost value | Main cause",
        `North | ${formatMailEnergy(80_500, "en")} | ${formatMailMoney(16.1, "EUR", "en")} | Downtime`,
        `South | ${formatMailEnergy(35_000, "en")} | ${formatMailMoney(10, "EUR", "en")} | Partial outage`,
      ].join("\n"),
    );
    expect(report.html).toContain("<h3>Sites that lost most</h3>");

    const lines = csvOf(report);
    expect(lines[0]).toBe(
      "month,site id,site,energy (Wh),expected (Wh),performance ratio,availability,energy lost (Wh),losses (kWh),lost value,currency,main cause",
    );
    expect(lines.find((line) => line.includes(`,${north.siteId},`))).toMatch(/,80\.5,16\.1,EUR,downtime$/);
    expect(lines.find((line) => line.includes(`,${south.siteId},`))).toMatch(/,35,10,EUR,partialOutage$/);
  });

  it("says so in the member's language when no price is set, or when no day has an account", async () => {
    const priced = await registerOwner("Unpriced Report Solar");
    await setPreferences(priced, { timezone: "Europe/Paris", language: "fr" });
    const site = await seedSite(priced.orgId, "Toit");
    await seedAccounts(priced.orgId, site.systemId, [20], { expected: 40_000, downtime: 40_000 });
    const empty = await registerOwner("Empty Report Solar");
    await setPreferences(empty, { timezone: "Europe/Madrid", language: "es" });
    await seedSite(empty.orgId, "Tejado");

    await runMailAt(Date.UTC(2026, 6, 1, 7, 0));
    const french = (await reportOf(priced.email)).text;
    expect(french).toContain(
      `Pertes : ${formatMailEnergy(40_000, "fr")} perdus, soit ${formatMailPercent(1, "fr")} des ${formatMailEnergy(40_000, "fr")} attendus.`,
    );
    expect(french).toContain("Aucun prix de l'énergie n'est fixé");
    expect(french).toContain(`Toit | ${formatMailEnergy(40_000, "fr")} | Pas de données | Arrêt`);
    const spanish = (await reportOf(empty.email)).text;
    expect(spanish).toContain("Aún no hay ningún día del mes con las pérdidas calculadas.");
    expect(spanish).not.toContain("Instalaciones que más perdieron");
  });
});
