import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { liveOf, meteronlineImport, storedPoints, storeSql } from "../fleet-helpers";
import { addMember, call, expectStatus, registerOwner } from "../helpers";

const body = meteronlineImport([
  "01-07-2024 10:00;MO-1001;Dakpark Noord;3,215;12,4",
  "01-07-2024 10:05;MO-1001;Dakpark Noord;3,300;12,7",
  "01-07-2024 10:05;MO-2002;Loods Zuid;1,100;4,0",
  "not a date;MO-1001;Dakpark Noord;1;1",
  "01-07-2024 10:10;MO-2002;Loods Zuid;abc;4,1",
  "01-07-2024 10:15;;Loods Zuid;1;1",
]);

describe("POST /api/providers/meteronline/import", () => {
  it("imports readable rows in W and Wh at the right UTC time and reports each unreadable row", async () => {
    const owner = await registerOwner();
    const result = await expectStatus<{
      readingsImported: number;
      systems: number;
      rowsRead: number;
      errors: { row: number; error: string }[];
    }>(await call("/api/providers/meteronline/import", { method: "POST", token: owner.token, body }), 200);
    expect(result).toMatchObject({ rowsRead: 6, readingsImported: 3, systems: 2 });
    expect(result.errors.map((e) => e.row)).toEqual([5, 6, 7]);
    expect(result.errors[0]?.error).toMatch(/not a date/);
    expect(result.errors[1]?.error).toMatch(/Power "abc" is not a number/);
    expect(result.errors[2]?.error).toMatch(/system column/);

    // Metadata in D1, live values and readings in the organisation's fleet store.
    const [system] = await storeSql<{ id: string; name: string; sys: number }>(
      owner.orgId,
      "SELECT system_id AS id, name, sys FROM systems WHERE provider_system_id = 'MO-1001'",
    );
    const inD1 = await env.DB.prepare("SELECT name FROM monitoring_systems WHERE id = ? AND org_id = ?")
      .bind(system?.id ?? "", owner.orgId)
      .first<{ name: string }>();
    expect(inD1?.name).toBe("Dakpark Noord");
    // 10:05 in Amsterdam (summer time) is 08:05 UTC; the newest row becomes the current value.
    expect(system?.name).toBe("Dakpark Noord");
    expect(await liveOf(owner.orgId, system?.id ?? "")).toMatchObject({
      powerW: 3300,
      energyTodayWh: 12700,
      dataTime: Date.UTC(2024, 6, 1, 8, 5),
    });
    expect((await storedPoints(owner.orgId)).filter((p) => p.sys === system?.sys)).toHaveLength(2);
  });

  it("imports the same file twice without duplicating readings", async () => {
    const owner = await registerOwner();
    for (let i = 0; i < 2; i++) {
      await expectStatus(
        await call("/api/providers/meteronline/import", { method: "POST", token: owner.token, body }),
        200,
      );
    }
    expect(await storedPoints(owner.orgId)).toHaveLength(3);
  });

  it("names a mapped column the file does not have, and lists the columns it does", async () => {
    const owner = await registerOwner();
    const answer = await expectStatus<{ error: string; details: { columns: string[] } }>(
      await call("/api/providers/meteronline/import", {
        method: "POST",
        token: owner.token,
        body: { ...body, mapping: { ...body.mapping, power: "Power" } },
      }),
      400,
    );
    expect(answer.error).toBe('The file has no column named "Power"');
    expect(answer.details.columns).toContain("Vermogen (kW)");
  });

  it("refuses a file with no readable row, an unknown time zone, and a user without the right", async () => {
    const owner = await registerOwner();
    await expectStatus(
      await call("/api/providers/meteronline/import", {
        method: "POST",
        token: owner.token,
        body: meteronlineImport(["x;;;;"]),
      }),
      400,
    );
    await expectStatus(
      await call("/api/providers/meteronline/import", {
        method: "POST",
        token: owner.token,
        body: { ...body, timezone: "Mars/Olympus" },
      }),
      400,
    );
    const user = await addMember(owner, "user");
    await expectStatus(
      await call("/api/providers/meteronline/import", { method: "POST", token: user.token, body }),
      403,
    );
    const systems = await env.DB.prepare("SELECT count(*) AS n FROM monitoring_systems WHERE org_id = ?")
      .bind(owner.orgId)
      .first<{ n: number }>();
    expect(systems?.n).toBe(0);
  });

  it("accepts an export larger than the usual JSON limit", async () => {
    const owner = await registerOwner();
    const rows = Array.from({ length: 3000 }, (_, i) => {
      const minute = String(i % 60).padStart(2, "0");
      const hour = String(6 + (Math.floor(i / 60) % 12)).padStart(2, "0");
      const day = String(1 + Math.floor(i / 720)).padStart(2, "0");
      return `${day}-07-2024 ${hour}:${minute};MO-3003;Groot Dak;2,5;10,0`;
    });
    const big = meteronlineImport(rows);
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    const result = await expectStatus<{ readingsImported: number }>(
      await call("/api/providers/meteronline/import", { method: "POST", token: owner.token, body: big }),
      200,
    );
    expect(result.readingsImported).toBe(3000);
  });
});
