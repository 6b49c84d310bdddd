import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/app";
import { summaryProviders } from "../../schema/api/dashboard";
import { providerRegistrations, providerUrlRegistrations } from "../../schema/provider-registry";
import { passedThrough, sandboxVariables } from "../../scripts/lib/sandbox-env";
import { providerFilters } from "../../web/components/analytics/metrics";
import { landingEn } from "../../web/lib/i18n/landing/en";
import { exampleRegistration } from "../fixtures/providers/example/registration";

const root = path.resolve(import.meta.dirname, "../..");
const ids = providerRegistrations.map((p) => p.id);
const apiIds = providerRegistrations.filter((p) => p.ingestion === "api").map((p) => p.id);

/** Places that cannot import the registration list are checked against it here. */
describe("one registration per provider", () => {
  it("serves every registered URL under its sandbox mount", () => {
    const mounted = new Set(createSandbox().routes.map((route) => route.path.split("/")[1]));
    for (const url of providerUrlRegistrations) {
      expect(mounted, `${url.env} → ${url.sandboxMount}`).toContain(url.sandboxMount.slice(1));
    }
  });

  it("points every registered URL variable at its sandbox mount under npm start", () => {
    const start = readFileSync(path.join(root, "scripts/start.mjs"), "utf8");
    expect(start).toContain('tsImport("./lib/sandbox-env.ts", import.meta.url)');
    const variables = sandboxVariables("http://127.0.0.1:8788", "http://127.0.0.1:8787");
    for (const url of providerUrlRegistrations) {
      expect(variables[url.env], url.env).toBe(`http://127.0.0.1:8788${url.sandboxMount}`);
      // With --no-sandbox, the variable set in the environment reaches the worker.
      expect(passedThrough(url.env), url.env).toBe(true);
    }
  });

  it("lists every provider in the client's filters, and every API provider in the dashboard's breakdown", () => {
    expect([...providerFilters].sort()).toEqual([...ids].sort());
    expect([...summaryProviders].sort()).toEqual([...apiIds].sort());
  });

  it("describes every provider on the landing page (the i18n parity test holds es and fr to it)", () => {
    expect(Object.keys(landingEn.landing.providers).sort()).toEqual([...ids].sort());
  });

  it("leaves the provider fixture (tests/fixtures/providers/) out of every list outside its test project", () => {
    const fixture = exampleRegistration.id;
    expect(ids).not.toContain(fixture);
    expect(providerFilters).not.toContain(fixture);
    expect(summaryProviders).not.toContain(fixture);
    expect(Object.keys(landingEn.landing.providers)).not.toContain(fixture);
    expect(createSandbox().routes.map((route) => route.path.split("/")[1])).not.toContain(fixture);
    expect(sandboxVariables("http://127.0.0.1:8788", "")).not.toHaveProperty(exampleRegistration.urls[0].env);
  });

  it("documents every URL variable in the README", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    for (const url of providerUrlRegistrations) expect(readme, url.env).toContain(url.env);
  });
});
