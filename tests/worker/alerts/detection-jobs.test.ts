import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../../../worker/env";
import { detectAfterPage, detectAllOrgs } from "../../../worker/services/detection";
import { storePoints } from "../fleet/fleet-fixtures";
import { alertsOf, at, db, EXPECTED_W, plant, pointOf } from "./detection-fixtures";

describe("detection jobs", () => {
  it("the 5-minute job finds a plant that stopped reporting", async () => {
    const p = await plant();
    await storePoints(p.orgId, [pointOf(p, at("12:00"), [EXPECTED_W])]);
    await detectAllOrgs({ db, env }, at("12:55"));
    expect(await alertsOf(p.orgId)).toEqual([]);
    await detectAllOrgs({ db, env }, at("13:00"));
    expect((await alertsOf(p.orgId)).map((a) => [a.rule, a.severity])).toEqual([
      ["communication_lost", "warning"],
    ]);
  });

  it("after a page, a failing detection is logged and never thrown", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = {
      ...env,
      FLEET_STORE: {
        idFromName: () => {
          throw new Error("store unreachable");
        },
      },
    } as unknown as Env;
    const p = await plant();
    await expect(
      detectAfterPage({ db, env: broken }, p.orgId, [p.system.id], at("12:00")),
    ).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("store unreachable"));
    errors.mockRestore();
  });
});
