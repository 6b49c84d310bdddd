import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/app";
import { type FaultVendor, faultVendors } from "../../../sandbox/faults";
import { type DashboardSummary, summaryProviders } from "../../../schema/api/dashboard";
import type { DashboardMetric } from "../../../schema/api/metrics";
import { providerIdSchema, providerIds } from "../../../schema/api/providers";
import { sandboxUrlVariables } from "../../../schema/provider-registry";
import { sandboxVariables } from "../../../scripts/lib/sandbox-env";
import { providerFilters } from "../../../web/components/analytics/metrics";
import { providerChartColours, providerNames } from "../../../web/lib/providers";
import { providerUrls } from "../../../worker/providers/urls";
import { exampleRegistration } from "../../fixtures/providers/example/registration";
import { exampleAccounts } from "../../fixtures/providers/example/sandbox";
import { call, expectStatus, registerOwner } from "../helpers";

/**
 * This project (worker-fixture in vitest.config.ts) registers a sixth provider the way a real one
 * is registered: one folder (tests/fixtures/providers/example/: registration, adapter, emulator)
 * and its line in each list a provider is named in. Everything else picks it up from there.
 */
const id = exampleRegistration.id;
const account = exampleAccounts[0];
const credentials = { apiKey: account.apiKey };

describe("a provider registered in a fixture", () => {
  it("is a provider id of the API", () => {
    expect(providerIds.at(-1)).toBe(id);
    expect(providerIdSchema.safeParse(id).success).toBe(true);
  });

  it("is connected and synced through the app on the real runtime", async () => {
    const owner = await registerOwner();
    const providers = await expectStatus<{ name: string; displayName: string; ingestion: string }[]>(
      await call("/api/providers", { token: owner.token }),
      200,
    );
    expect(providers.at(-1)).toMatchObject({ name: id, displayName: "Example Cloud", ingestion: "api" });
    const schema = await expectStatus<{ fields: { field: string; type: string }[] }>(
      await call(`/api/providers/${id}/schema`, { token: owner.token }),
      200,
    );
    expect(schema.fields).toEqual([expect.objectContaining({ field: "apiKey", type: "password" })]);

    const tested = await expectStatus<{ sitesFound: number }>(
      await call(`/api/credentials/${id}/test`, {
        method: "POST",
        token: owner.token,
        body: { credentials },
      }),
      200,
    );
    expect(tested.sitesFound).toBe(account.plants);
    await expectStatus(
      await call(`/api/credentials/${id}/test`, {
        method: "POST",
        token: owner.token,
        body: { credentials: { apiKey: "not-the-key" } },
      }),
      400,
    );

    const saved = await expectStatus<{ sync: { status: string; sitesCount: number } }>(
      await call("/api/credentials", {
        method: "POST",
        token: owner.token,
        body: { provider: id, credentials },
      }),
      201,
    );
    expect(saved.sync).toMatchObject({ status: "success", sitesCount: account.plants });
    const synced = await expectStatus<{ sitesCount: number; invertersCount: number; message: string }>(
      await call(`/api/providers/${id}/sync`, { method: "POST", token: owner.token }),
      200,
    );
    expect(synced.message).toBe(
      `Successfully synced ${account.plants} sites and ${synced.invertersCount} inverters from Example Cloud`,
    );

    const connections = await expectStatus<Record<string, unknown>[]>(
      await call("/api/credentials", { token: owner.token }),
      200,
    );
    expect(connections).toEqual([
      expect.objectContaining({ provider: id, status: "active", systemsCount: account.plants }),
    ]);
    const metrics = await expectStatus<DashboardMetric[]>(
      await call("/api/dashboard/metrics", { token: owner.token }),
      200,
    );
    expect(metrics.map((m) => m.provider)).toEqual(Array(account.plants).fill(id));
    const summary = await expectStatus<DashboardSummary>(
      await call("/api/dashboard/summary", { token: owner.token }),
      200,
    );
    expect(summary.providers.at(-1)).toMatchObject({ provider: id, systemCount: account.plants });
  });

  it("is served by the sandbox at its registered mount, and faulted as its own vendor", async () => {
    const sandbox = createSandbox();
    expect(sandbox.routes.map((route) => route.path)).toContain("/example/v1/plants");
    const plants = await sandbox.request("/example/v1/plants", {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    expect(plants.status).toBe(200);
    expect(((await plants.json()) as { plants: unknown[] }).plants).toHaveLength(account.plants);

    expect(faultVendors).toContain(id);
    sandbox.faults.refuseCredentials(id as string as FaultVendor);
    const refused = await sandbox.request("/example/v1/plants", {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    expect(refused.status).toBe(401);
  });

  it("has its URL variable in the worker's bindings, the test configuration's and the start script's", () => {
    const variable = exampleRegistration.urls[0].env;
    expect((env as unknown as Record<string, string>)[variable]).toBe("http://sandbox.test/example");
    expect((providerUrls(env) as Record<string, string>).example).toBe("http://sandbox.test/example");
    expect(sandboxUrlVariables("http://127.0.0.1:8788")).toHaveProperty(
      variable,
      "http://127.0.0.1:8788/example",
    );
    expect(sandboxVariables("http://127.0.0.1:8788", "http://127.0.0.1:8787")).toHaveProperty(
      variable,
      "http://127.0.0.1:8788/example",
    );
  });

  it("is in the client's lists, names and colours", () => {
    expect(providerFilters).toEqual(["solis", "fronius", "sma", "solax", id, "meteronline"]);
    expect(summaryProviders).toEqual(["solis", "sma", "solax", "fronius", id]);
    expect(providerNames).toHaveProperty(id, "Example");
    expect(providerChartColours).toHaveProperty(id, "rose");
  });
});
