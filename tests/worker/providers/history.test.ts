import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import { froniusGuid, froniusPlants } from "../../../sandbox/fronius";
import {
  inverterEnergyTodayWh,
  inverterPowerW,
  type SimPlant,
  simulatedPlants,
} from "../../../sandbox/simulation";
import { solaxPlants } from "../../../sandbox/solax";
import { localBudget } from "../../../worker/providers/budget";
import { froniusAdapter } from "../../../worker/providers/fronius";
import { ProviderHttp } from "../../../worker/providers/http";
import { smaAdapter } from "../../../worker/providers/sma";
import { solaxAdapter } from "../../../worker/providers/solax";
import { solisAdapter } from "../../../worker/providers/solis";
import type { ProviderAdapter } from "../../../worker/providers/types";
import { callContext } from "./harness";

/** Two days after Europe's summer time ended (25 October 2026), at noon UTC. */
const NOW = Date.UTC(2026, 9, 27, 12, 0);

/** The adapter's call context on a sandbox held at NOW; spacing waits move a fake clock only. */
function context(adapter: ProviderAdapter, credentials: unknown) {
  let fakeClock = 0;
  const sandbox = createSandbox({ now: () => NOW, clock: () => fakeClock });
  const http = new ProviderHttp({
    fetch: (request) => Promise.resolve(sandbox.fetch(request)),
    budget: localBudget(adapter.callPlan(credentials)),
    sleep: async (ms) => {
      fakeClock += ms;
    },
    now: () => NOW + fakeClock,
  });
  const ctx = callContext(http, () => NOW);
  return { ctx, http };
}

const solis = sandboxAccounts.solis[0];
const fronius = sandboxAccounts.fronius[0];
const sma = sandboxAccounts.sma[0];
const solax = sandboxAccounts.solax[0];

/** Each vendor with history: its adapter, sandbox credentials, plants and their vendor ids, calls per day. */
const vendors = [
  {
    name: "SolisCloud stationDay",
    adapter: solisAdapter,
    credentials: { keyId: solis.keyId, keySecret: solis.keySecret },
    plants: simulatedPlants("solis", solis.keyId, solis.plants),
    vendorId: (plant: SimPlant) => plant.id,
    calls: 1,
  },
  {
    name: "Fronius histdata",
    adapter: froniusAdapter,
    credentials: { accessKeyId: fronius.accessKeyId, accessKeyValue: fronius.accessKeyValue },
    plants: froniusPlants(fronius.accessKeyId),
    vendorId: (plant: SimPlant) => froniusGuid(plant.id),
    calls: 1,
  },
  {
    name: "SMA plant day data set",
    adapter: smaAdapter,
    credentials: { clientId: sma.clientId, clientSecret: sma.clientSecret, ownerEmail: sma.ownerEmail },
    plants: simulatedPlants("sma", sma.clientId, sma.plants),
    vendorId: (plant: SimPlant) => plant.id,
    // The token, the owner's consent, and the day.
    calls: null,
  },
  {
    name: "SolaX OpenAPI history_data",
    adapter: solaxAdapter,
    credentials: { apiType: "openapi", clientId: solax.clientId, clientSecret: solax.clientSecret },
    plants: solaxPlants(solax),
    vendorId: (plant: SimPlant) => plant.id,
    // The token, the plant's inverters, three windows.
    calls: null,
  },
] as const;

const europe = (plants: readonly SimPlant[]) => {
  const plant = plants.find((candidate) => candidate.timezone.startsWith("Europe/"));
  if (!plant) throw new Error("no European sandbox plant");
  return plant;
};

describe.each(vendors)("history from $name", (vendor) => {
  const fetchDay = async (plant: SimPlant, date: string) => {
    const adapter = vendor.adapter as ProviderAdapter;
    const { ctx, http } = context(adapter, vendor.credentials);
    const day = await adapter.fetchHistory(ctx, adapter.credentialsSchema.parse(vendor.credentials), {
      providerSystemId: vendor.vendorId(plant),
      date,
      timezone: plant.timezone,
    });
    if (!day) throw new Error("no history");
    return { day, calls: http.calls };
  };

  it("answers a past day's 5-minute points equal to what the live values were at those times", async () => {
    const plant = europe(vendor.plants);
    const { day, calls } = await fetchDay(plant, "2026-10-20");
    if (vendor.calls !== null) expect(calls).toBe(vendor.calls);
    expect(day.systemPoints).toHaveLength(288);
    const noon = day.systemPoints.find(
      (p) => new Date(p.time).getUTCHours() === 11 && p.time % 3_600_000 === 0,
    );
    if (!noon) throw new Error("no point at 11:00 UTC");
    const power = plant.inverters.reduce((sum, _, i) => sum + inverterPowerW(plant, i, noon.time), 0);
    const energy = plant.inverters.reduce((sum, _, i) => sum + inverterEnergyTodayWh(plant, i, noon.time), 0);
    expect(power).toBeGreaterThan(0);
    expect(noon.powerW).toBe(power);
    // Whole watt-hours per inverter in the simulation, unrounded sums from energy buckets.
    expect(Math.abs((noon.energyTodayWh ?? 0) - energy)).toBeLessThanOrEqual(plant.inverters.length);
    const last = day.systemPoints.at(-1);
    expect(day.dailyEnergyWh).toBeGreaterThanOrEqual(last?.energyTodayWh ?? 0);
    expect(
      day.systemPoints.every((p, i) => i === 0 || p.time - (day.systemPoints[i - 1]?.time ?? 0) === 300_000),
    ).toBe(true);
  });

  it("answers 25 hours of points on the day summer time ends and 23 on the day it starts", async () => {
    const plant = europe(vendor.plants);
    expect((await fetchDay(plant, "2026-10-25")).day.systemPoints).toHaveLength(300);
    expect((await fetchDay(plant, "2026-03-29")).day.systemPoints).toHaveLength(276);
  });

  it("answers today only up to the vendor's newest data", async () => {
    const plant = europe(vendor.plants);
    const { day } = await fetchDay(plant, "2026-10-27");
    expect(day.systemPoints.length).toBeGreaterThan(100);
    expect(day.systemPoints.every((p) => p.time <= NOW)).toBe(true);
  });
});

describe("vendors without history", () => {
  it("SolaX's token API has none: no call is made", async () => {
    const credentials = solaxAdapter.credentialsSchema.parse({
      apiType: "token",
      tokenId: solax.tokenId,
      wifiSns: solax.wifiSns.join(","),
    });
    const { ctx, http } = context(solaxAdapter as ProviderAdapter, credentials);
    expect(solaxAdapter.historyCallsPerDay(credentials)).toBe(0);
    expect(
      await solaxAdapter.fetchHistory(ctx, credentials, {
        providerSystemId: "SVSANDBOX1",
        date: "2026-10-20",
        timezone: "Europe/Amsterdam",
      }),
    ).toBeNull();
    expect(http.calls).toBe(0);
  });
});
