import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/app";
import { summaryProviders } from "../../schema/api/dashboard";
import { providerRegistrations, providerUrlRegistrations } from "../../schema/provider-registry";
import { providerFilters } from "../../web/components/analytics/metrics";
import { landingEn } from "../../web/lib/i18n/landing/en";

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
    for (const url of providerUrlRegistrations) {
      expect(start, url.env).toContain(`${url.env}: \`\${origin}${url.sandboxMount}\``);
    }
  });

  it("lists every provider in the client's filters, and every API provider in the dashboard's breakdown", () => {
    expect([...providerFilters].sort()).toEqual([...ids].sort());
    expect([...summaryProviders].sort()).toEqual([...apiIds].sort());
  });

  it("describes every provider on the landing page (the i18n parity test holds es and fr to it)", () => {
    expect(Object.keys(landingEn.landing.providers).sort()).toEqual([...ids].sort());
  });

  it("documents every URL variable in the README", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    for (const url of providerUrlRegistrations) expect(readme, url.env).toContain(url.env);
  });
});
