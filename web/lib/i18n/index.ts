import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { type Language, languages } from "../../../schema/domain";
import { reloadPage } from "../reload-page";
import type { PublicTranslation } from "./public/en";

/**
 * Each language's strings come in chunks of their own. The public pages' common strings (header,
 * footer, sign-in forms, error screens) load with every page; each set below loads with what shows
 * it (`loadStringSet`). A visitor downloads only the language they read.
 */
export const publicLanguageLoaders: Record<Language, () => Promise<PublicTranslation>> = {
  en: () => import("./public/en").then((module) => module.publicEn),
  es: () => import("./public/es").then((module) => module.publicEs),
  fr: () => import("./public/fr").then((module) => module.publicFr),
};

export const stringSets = {
  /** The landing page's, loaded by its route. */
  landing: {
    en: () => import("./landing/en").then((module) => module.landingEn),
    es: () => import("./landing/es").then((module) => module.landingEs),
    fr: () => import("./landing/fr").then((module) => module.landingFr),
  },
  /** The pricing page's, loaded by its route. */
  pricing: {
    en: () => import("./pricing/en").then((module) => module.pricingEn),
    es: () => import("./pricing/es").then((module) => module.pricingEs),
    fr: () => import("./pricing/fr").then((module) => module.pricingFr),
  },
  /** The API's error messages, loaded with the first failed call (lib/api.ts). */
  apiErrors: {
    en: () => import("./api-errors/en").then((module) => module.apiErrorsEn),
    es: () => import("./api-errors/es").then((module) => module.apiErrorsEs),
    fr: () => import("./api-errors/fr").then((module) => module.apiErrorsFr),
  },
  /** The app's and the demo's, loaded by their routes before their screens render. */
  app: {
    en: () => import("./en").then((module) => module.en),
    es: () => import("./es").then((module) => module.es),
    fr: () => import("./fr").then((module) => module.fr),
  },
} satisfies Record<string, Record<Language, () => Promise<object>>>;

export type StringSet = keyof typeof stringSets;

const isLoadable = (language: string | null): language is Language =>
  language !== null && Object.hasOwn(publicLanguageLoaders, language);

/** The sets asked for so far: from then on every language loads with them. */
const wantedSets = new Set<StringSet>();
const setsLoaded = new Map<Language, Set<StringSet>>();

/** A language's public strings with every wanted set, those asked for while they load included. */
async function loadStrings(language: Language): Promise<object> {
  const requested = new Map<StringSet, Promise<object>>();
  const requestWanted = () => {
    for (const set of wantedSets) {
      if (!requested.has(set)) requested.set(set, stringSets[set][language]());
    }
  };
  requestWanted();
  const resource: object = { ...(await publicLanguageLoaders[language]()) };
  requestWanted();
  let merged = 0;
  while (merged < requested.size) {
    const parts = await Promise.all([...requested.values()].slice(merged));
    merged += parts.length;
    Object.assign(resource, ...parts);
    requestWanted();
  }
  setsLoaded.set(language, new Set(requested.keys()));
  return resource;
}

const STRINGS_RELOAD_KEY = "sunfleet_strings_reload";
const STRINGS_RELOAD_INTERVAL_MS = 60_000;

/**
 * A strings chunk that failed to arrive (a dropped connection, or a deploy that replaced the chunks)
 * would leave keys on screen: the page reloads, once a minute at most. Asking again is no use, as
 * a browser keeps a module that failed to load failed until the page is loaded again.
 */
function reloadOnceForStrings(): void {
  try {
    const last = Number(sessionStorage.getItem(STRINGS_RELOAD_KEY) ?? 0);
    if (Date.now() - last < STRINGS_RELOAD_INTERVAL_MS) return;
    sessionStorage.setItem(STRINGS_RELOAD_KEY, String(Date.now()));
  } catch {
    return;
  }
  reloadPage();
}

/** i18next asks this backend for a language it does not hold yet; `changeLanguage` waits for it. */
const lazyLanguages: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (!isLoadable(language)) {
      callback(null, {});
      return;
    }
    loadStrings(language).then(
      (resource) => callback(null, resource),
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), false);
        reloadOnceForStrings();
      },
    );
  },
};

/**
 * Adds a set of strings to every language already loaded (later ones load with it). Resolves once
 * the languages held have it, so whatever shows them can render.
 */
export async function loadStringSet(set: StringSet): Promise<void> {
  wantedSets.add(set);
  const missing = [...setsLoaded].filter(([, sets]) => !sets.has(set));
  await Promise.all(
    missing.map(async ([language, sets]) => {
      const strings = await stringSets[set][language]().catch((error: unknown) => {
        reloadOnceForStrings();
        throw error;
      });
      i18n.addResourceBundle(language, "translation", strings, true, true);
      sets.add(set);
    }),
  );
}

/** Remembers the last language on this browser so a reload does not flash English first. */
export const LANGUAGE_STORAGE_KEY = "sunfleet_language";

function storedLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLoadable(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once the language's strings (one chunk) are loaded, so the first render is already translated. */
export async function initI18n(language: Language = storedLanguage() ?? "en") {
  if (i18n.isInitialized) return i18n;
  const ready = i18n
    .use(lazyLanguages)
    .use(initReactI18next)
    .init({
      lng: language,
      // A language we have is complete (the parity test), so it loads alone; any other falls back to English.
      fallbackLng: (code: string) => (isLoadable(code) ? [] : ["en"]),
      supportedLngs: [...languages],
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  document.documentElement.lang = language;
  i18n.on("languageChanged", (next) => {
    document.documentElement.lang = next;
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // Storage may be unavailable (private mode); the saved preference still applies after sign-in.
    }
  });
  await ready;
  return i18n;
}

export { i18n };
