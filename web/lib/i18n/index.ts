import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { type Language, languages } from "../../../schema/domain";
import type { Translation } from "./en";
import type { PublicTranslation } from "./public/en";

/**
 * Each language's strings come in two chunks of their own: those of the pages shown before sign-in
 * (with the error screens and API error codes), which every page needs, and the app's, loaded when
 * its screens are first visited. A visitor downloads only the language they read.
 */
export const publicLanguageLoaders: Record<Language, () => Promise<PublicTranslation>> = {
  en: () => import("./public/en").then((module) => module.publicEn),
  es: () => import("./public/es").then((module) => module.publicEs),
  fr: () => import("./public/fr").then((module) => module.publicFr),
};

export const appLanguageLoaders: Record<Language, () => Promise<Translation>> = {
  en: () => import("./en").then((module) => module.en),
  es: () => import("./es").then((module) => module.es),
  fr: () => import("./fr").then((module) => module.fr),
};

const isLoadable = (language: string | null): language is Language =>
  language !== null && Object.hasOwn(publicLanguageLoaders, language);

/** Set once an app screen asked for its strings: from then on every language loads with them. */
let appStringsWanted = false;
const languagesWithAppStrings = new Set<Language>();

async function loadStrings(
  language: Language,
): Promise<PublicTranslation | (PublicTranslation & Translation)> {
  const appStrings = appStringsWanted ? appLanguageLoaders[language]() : undefined;
  const publicStrings = await publicLanguageLoaders[language]();
  // Asked for while the public strings were on their way: they come now rather than never.
  if (appStrings === undefined && !appStringsWanted) return publicStrings;
  const merged = { ...publicStrings, ...(await (appStrings ?? appLanguageLoaders[language]())) };
  languagesWithAppStrings.add(language);
  return merged;
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
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * Adds the app's strings to every language already loaded (later ones load with them). The app's
 * and the demo's routes await it before their screens render.
 */
export async function loadAppStrings(): Promise<void> {
  appStringsWanted = true;
  const missing = languages.filter(
    (language) => !languagesWithAppStrings.has(language) && i18n.hasResourceBundle(language, "translation"),
  );
  await Promise.all(
    missing.map(async (language) => {
      const appStrings = await appLanguageLoaders[language]();
      i18n.addResourceBundle(language, "translation", appStrings, true, true);
      languagesWithAppStrings.add(language);
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
