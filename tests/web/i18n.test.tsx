import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Language } from "../../schema/domain";
import { roleLabels } from "../../schema/roles";
import { i18n, loadStringSet, publicLanguageLoaders, type StringSet, stringSets } from "../../web/lib/i18n";
import { en } from "../../web/lib/i18n/en";
import { fleetListsResources } from "../../web/lib/i18n/fleet-lists";
import { fr } from "../../web/lib/i18n/fr";
import { lossesResources } from "../../web/lib/i18n/losses";
import { pricingEn } from "../../web/lib/i18n/pricing/en";
import { pricingFr } from "../../web/lib/i18n/pricing/fr";
import { publicEn } from "../../web/lib/i18n/public/en";
import { publicFr } from "../../web/lib/i18n/public/fr";
import { verificationResources } from "../../web/lib/i18n/verification";
import { weatherResources } from "../../web/lib/i18n/weather";
import { reloadPage } from "../../web/lib/reload-page";
import { mockApi, renderApp } from "./helpers";

/** Every leaf of a resource as [dotted key, text]. */
function leaves(resource: object, prefix = ""): [string, unknown][] {
  return Object.entries(resource).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === "object"
      ? leaves(value, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value]],
  );
}

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

/** Each language's sets, as the client loads them: the public pages' common strings, then every set. */
const loadSets = (language: Language): Promise<object[]> =>
  Promise.all([
    publicLanguageLoaders[language](),
    ...(Object.keys(stringSets) as StringSet[]).map((set) => stringSets[set][language]()),
  ]);
const sets = { en: await loadSets("en"), es: await loadSets("es"), fr: await loadSets("fr") };
/** Each language whole. */
const whole = {
  en: Object.assign({}, ...sets.en),
  es: Object.assign({}, ...sets.es),
  fr: Object.assign({}, ...sets.fr),
};
const keysOf = (resource: object) =>
  leaves(resource)
    .map(([key]) => key)
    .sort();

describe("translations", () => {
  const english = new Map(leaves(whole.en));

  it.each([["es"], ["fr"]] as const)("%s has exactly the English keys, set by set", (language) => {
    sets[language].forEach((set, index) => {
      expect(keysOf(set)).toEqual(keysOf(sets.en[index] as object));
    });
  });

  it("keeps the sets apart (no section in two)", () => {
    const sections = sets.en.flatMap((set) => Object.keys(set));
    expect(sections.filter((section, index) => sections.indexOf(section) !== index)).toEqual([]);
  });

  it.each([
    ["en", whole.en],
    ["es", whole.es],
    ["fr", whole.fr],
  ])("%s has no empty or non-text values", (_language, resource) => {
    for (const [key, value] of leaves(resource)) {
      expect(typeof value, key).toBe("string");
      expect(String(value).trim(), key).not.toBe("");
    }
  });

  it.each([
    ["es", whole.es],
    ["fr", whole.fr],
  ])("%s keeps every interpolation placeholder of the English text", (_language, resource) => {
    for (const [key, value] of leaves(resource)) {
      expect(placeholders(value), key).toEqual(placeholders(english.get(key)));
    }
  });

  // The string sets loaded with the screens that show them (lazyStrings).
  const lazySets = {
    verification: verificationResources,
    losses: lossesResources,
    fleetLists: fleetListsResources,
    weather: weatherResources,
  };
  it.each(
    Object.entries(lazySets).flatMap(([name, resources]) => [
      [name, "es", resources.en, resources.es],
      [name, "fr", resources.en, resources.fr],
    ]),
  )(
    "the %s strings in %s have exactly the English keys and placeholders",
    (_name, _language, english, resource) => {
      const englishLeaves = new Map(leaves(english));
      const entries = leaves(resource);
      expect(entries.map(([key]) => key).sort()).toEqual([...englishLeaves.keys()].sort());
      for (const [key, value] of entries) {
        expect(typeof value, key).toBe("string");
        expect(String(value).trim(), key).not.toBe("");
        expect(placeholders(value), key).toEqual(placeholders(englishLeaves.get(key)));
      }
    },
  );

  it("labels roles in English exactly as the shared roleLabels do", () => {
    expect(en.roles).toEqual(roleLabels);
  });

  it("translates more than the brand names", () => {
    const identical = leaves(whole.es).filter(([key, value]) => value === english.get(key));
    // Brand names, plan names and a few international words legitimately stay the same.
    expect(identical.length).toBeLessThan(15);
  });
});

describe("loading languages", () => {
  it("starts with the public strings, adds a set when asked, and loads it with a language chosen later", async () => {
    expect(i18n.getResourceBundle("en", "translation")).toEqual(publicEn);
    await loadStringSet("app");
    expect(i18n.getResourceBundle("en", "translation")).toEqual({ ...publicEn, ...en });
    await i18n.changeLanguage("fr");
    expect(i18n.language).toBe("fr");
    expect(i18n.getResourceBundle("fr", "translation")).toEqual({ ...publicFr, ...fr });
    expect(i18n.t("common.retry")).toBe(publicFr.common.retry);
    expect(i18n.t("nav.dashboard")).toBe(fr.nav.dashboard);
    await loadStringSet("pricing");
    expect(i18n.getResourceBundle("en", "translation")).toEqual({ ...publicEn, ...en, ...pricingEn });
    expect(i18n.getResourceBundle("fr", "translation")).toEqual({ ...publicFr, ...fr, ...pricingFr });
  });

  it("reloads the page when a language's strings fail to arrive, once a minute at most", async () => {
    const strings = vi.spyOn(publicLanguageLoaders, "fr").mockRejectedValue(new TypeError("Failed to fetch"));
    const landing = vi.spyOn(stringSets.landing, "fr").mockRejectedValue(new TypeError("Failed to fetch"));
    try {
      await i18n.reloadResources(["fr"]);
      expect(strings).toHaveBeenCalled();
      expect(reloadPage).toHaveBeenCalledTimes(1);
      // Another failure within the minute shows what there is rather than reload again.
      await expect(loadStringSet("landing")).rejects.toThrow("Failed to fetch");
      expect(landing).toHaveBeenCalled();
      expect(reloadPage).toHaveBeenCalledTimes(1);
    } finally {
      strings.mockRestore();
      landing.mockRestore();
      sessionStorage.clear();
    }
  });

  it("falls back to English for a language it does not have", () => {
    expect(i18n.t("common.retry", { lng: "de" })).toBe(publicEn.common.retry);
  });
});

describe("switching language", () => {
  it("renders the landing page in Spanish after changeLanguage('es')", async () => {
    mockApi({});
    await i18n.changeLanguage("es");
    renderApp("/");
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "Todas las instalaciones solares que gestiona, en una sola vista en directo",
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Probar la demo/ })).toHaveAttribute("href", "/demo");
    expect(screen.queryByText("Every solar site you manage, in one live view")).not.toBeInTheDocument();
    expect(document.documentElement.lang).toBe("es");
  });
});
