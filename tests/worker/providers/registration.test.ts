import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerRegistrations, providerUrlRegistrations } from "../../../schema/provider-registry";
import { findApiAdapter, providerDefinitions } from "../../../worker/providers/registry";
import { defaultProviderUrls, providerUrls, sandboxUrls } from "../../../worker/providers/urls";

describe("one registration per provider", () => {
  it("has one adapter or definition per registration, in its order, with its name and ingestion", () => {
    expect(providerDefinitions.map((p) => p.id)).toEqual(providerRegistrations.map((p) => p.id));
    for (const registration of providerRegistrations) {
      const definition = providerDefinitions.find((p) => p.id === registration.id);
      expect(definition?.displayName, registration.id).toBe(registration.displayName);
      expect(definition?.ingestion, registration.id).toBe(registration.ingestion);
      expect(Boolean(findApiAdapter(registration.id)), registration.id).toBe(
        registration.ingestion === "api",
      );
    }
  });

  it("gives the worker under test every registered URL variable, pointed at the sandbox", () => {
    const bindings = env as unknown as Record<string, string | undefined>;
    for (const url of providerUrlRegistrations) {
      expect(bindings[url.env], url.env).toBe(`http://sandbox.test${url.sandboxMount}`);
    }
    expect(providerUrls(env)).toEqual(sandboxUrls("http://sandbox.test"));
  });

  it("falls back to each registered production host when its variable is unset", () => {
    expect(providerUrls({})).toEqual(defaultProviderUrls);
    for (const url of providerUrlRegistrations) {
      expect(defaultProviderUrls[url.key as keyof typeof defaultProviderUrls]).toBe(url.defaultUrl);
    }
  });
});
