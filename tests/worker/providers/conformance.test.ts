import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { sandboxAccounts } from "../../../sandbox/accounts";
import { createSandbox } from "../../../sandbox/app";
import type { FaultVendor } from "../../../sandbox/faults";
import { smaPlants } from "../../../sandbox/sma";
import { froniusAdapter } from "../../../worker/providers/fronius";
import { providerDefinitions } from "../../../worker/providers/registry";
import { smaAdapter } from "../../../worker/providers/sma";
import { solaxAdapter } from "../../../worker/providers/solax";
import { solisAdapter } from "../../../worker/providers/solis";
import type { ProviderAdapter } from "../../../worker/providers/types";
import { asKnown, readAllPages } from "./all-pages";
import { callContext, failure, sandboxFetch } from "./harness";

/**
 * What every API adapter owes the sync engine, asked of each against the sandbox's small account.
 * Each adapter's own protocol (its calls, units, quirks) is tested in its own file.
 */

/** 12:00 in Amsterdam on a summer day, on a 5-minute boundary: plants in daylight and at night. */
const NOW = Date.UTC(2024, 6, 1, 10, 0);

interface AdapterCase {
  name: string;
  adapter: ProviderAdapter;
  /** What a user types in the credential form for the sandbox's small account. */
  form: Record<string, string>;
  /** The emulator whose faults reach this adapter. */
  vendor: FaultVendor;
  plants: number;
  /**
   * The calls that read only the plant and device lists, which a steady cycle never makes; null
   * where none does (SolisCloud's lists are its live values, the token API's list is the form's).
   */
  listCalls: RegExp | null;
}

const solis = sandboxAccounts.solis[0];
const fronius = sandboxAccounts.fronius[0];
const sma = sandboxAccounts.sma[0];
const solax = sandboxAccounts.solax[0];

const cases: AdapterCase[] = [
  {
    name: "SolisCloud",
    adapter: solisAdapter as ProviderAdapter,
    form: { keyId: solis.keyId, keySecret: solis.keySecret },
    vendor: "solis",
    plants: solis.plants,
    listCalls: null,
  },
  {
    name: "Fronius Solar.web",
    adapter: froniusAdapter as ProviderAdapter,
    form: { accessKeyId: fronius.accessKeyId, accessKeyValue: fronius.accessKeyValue },
    vendor: "fronius",
    plants: fronius.plants,
    listCalls: /^\/fronius\/pvsystems(-list)?$|\/devices$/,
  },
  {
    name: "SMA",
    adapter: smaAdapter as ProviderAdapter,
    form: { clientId: sma.clientId, clientSecret: sma.clientSecret, ownerEmail: sma.ownerEmail },
    vendor: "sma",
    plants: smaPlants(sma).length,
    listCalls: /^\/sma\/v1\/plants(\/[^/]+)?$|\/devices\/lean$/,
  },
  {
    name: "SolaX token API",
    adapter: solaxAdapter as ProviderAdapter,
    form: { apiType: "token", tokenId: solax.tokenId, wifiSns: solax.wifiSns.join(", ") },
    vendor: "solax",
    plants: solax.wifiSns.length,
    listCalls: null,
  },
  {
    name: "SolaX Developer OpenAPI",
    adapter: solaxAdapter as ProviderAdapter,
    form: { apiType: "openapi", clientId: solax.clientId, clientSecret: solax.clientSecret },
    vendor: "solax-openapi",
    plants: solax.plants + solax.commercialPlants,
    listCalls: /\/page_(plant|device)_info$/,
  },
];

/** A fresh sandbox at NOW as the vendor, recording every request; its rate limits see a second pass per call. */
function vendorAt(adapterCase: AdapterCase) {
  let limitClockMs = 0;
  const sandbox = createSandbox({ now: () => NOW, clock: () => (limitClockMs += 1000) });
  const seen: Request[] = [];
  const ctx = callContext(sandboxFetch(sandbox, { seen }), () => NOW);
  const credentials = adapterCase.adapter.credentialsSchema.parse(adapterCase.form);
  return { sandbox, seen, ctx, credentials };
}

it("covers every API adapter of the registry", () => {
  const apiProviders = providerDefinitions.filter((definition) => definition.ingestion === "api");
  expect(new Set(cases.map((c) => c.adapter.id))).toEqual(new Set(apiProviders.map((p) => p.id)));
});

describe.each(cases)("$name adapter", (adapterCase) => {
  const { adapter } = adapterCase;

  it("tests the connection against the sandbox's small account, counting its plants", async () => {
    const { ctx, credentials } = vendorAt(adapterCase);
    expect(await adapter.testConnection(ctx, credentials)).toEqual({ sitesFound: adapterCase.plants });
  });

  it("reads every plant of the lists once, each with its inverters", async () => {
    const { ctx, credentials } = vendorAt(adapterCase);
    const { systems } = await readAllPages(adapter, ctx, credentials);
    const ids = systems.map((system) => system.providerSystemId);
    expect(ids).toHaveLength(adapterCase.plants);
    expect(new Set(ids).size).toBe(ids.length);
    for (const system of systems) expect(system.inverters.length, system.name).toBeGreaterThan(0);
    const inverterIds = systems.flatMap((system) => system.inverters.map((i) => i.providerInverterId));
    expect(new Set(inverterIds).size).toBe(inverterIds.length);
  });

  it("reads only the known plants' live values on a steady cycle", async () => {
    const { ctx, credentials, seen } = vendorAt(adapterCase);
    const listed = await readAllPages(adapter, ctx, credentials);
    seen.length = 0;
    const steady = await readAllPages(adapter, ctx, credentials, listed.systems.map(asKnown));
    const { listCalls } = adapterCase;
    if (listCalls)
      expect(seen.map((r) => new URL(r.url).pathname).filter((p) => listCalls.test(p))).toEqual([]);
    // The same instant gives each plant once, with the values the full read gave.
    const live = (snapshot: typeof listed) =>
      snapshot.systems.map(({ providerSystemId, name, state, powerW, energyTodayWh, dataTime }) => ({
        providerSystemId,
        name,
        state,
        powerW,
        energyTodayWh,
        dataTime,
      }));
    expect(live(steady)).toEqual(live(listed));
  });

  it("declares its call plan: the credential's key and secret and at least one limit", () => {
    const { credentials } = vendorAt(adapterCase);
    const plan = adapter.callPlan(credentials);
    expect(plan.key).not.toBe("");
    expect(plan.secret).not.toBe("");
    expect(plan.limits.length).toBeGreaterThan(0);
    for (const limit of plan.limits) {
      expect(limit.intervalMs).toBeGreaterThan(0);
      expect(limit.burst).toBeGreaterThanOrEqual(1);
    }
  });

  it("answers a past day of a plant's history, or null without a history source", async () => {
    const { ctx, credentials } = vendorAt(adapterCase);
    const [system] = (await readAllPages(adapter, ctx, credentials)).systems;
    if (!system) throw new Error("the small account has plants");
    const timezone = system.timezone ?? "UTC";
    const day = DateTime.fromMillis(NOW, { zone: timezone }).minus({ days: 1 }).startOf("day");
    const date = day.toISODate() ?? "";
    const history = await adapter.fetchHistory(ctx, credentials, {
      providerSystemId: system.providerSystemId,
      date,
      timezone,
    });
    expect(history === null).toBe(adapter.historyCallsPerDay(credentials) === 0);
    if (history === null) return;
    const times = history.systemPoints.map((point) => point.time);
    expect(times.length).toBeGreaterThan(0);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const [start, end] = [day.toMillis(), day.plus({ days: 1 }).toMillis()];
    expect(times.every((time) => time >= start && time < end)).toBe(true);
  });

  it("reports the vendor's refusal of the credentials as auth", async () => {
    const { sandbox, ctx, credentials } = vendorAt(adapterCase);
    sandbox.faults.refuseCredentials(adapterCase.vendor);
    expect((await failure(adapter.testConnection(ctx, credentials))).kind).toBe("auth");
    expect((await failure(readAllPages(adapter, ctx, credentials))).kind).toBe("auth");
  });

  it("reports an answer that is not JSON, or one missing its fields, as malformed", async () => {
    for (const fault of ["unreadable", "partial"] as const) {
      const { sandbox, ctx, credentials } = vendorAt(adapterCase);
      if (fault === "unreadable") sandbox.faults.unreadable(adapterCase.vendor);
      else sandbox.faults.partial(adapterCase.vendor);
      expect((await failure(readAllPages(adapter, ctx, credentials))).kind, fault).toBe("malformed");
    }
  });
});
