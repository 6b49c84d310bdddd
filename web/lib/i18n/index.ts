import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { type Language, languageSchema, languages } from "../../../schema/api/preferences";
import type { Translation } from "./en";

/**
 * Every language, English included, is a chunk of its own: a visitor downloads only the strings of
 * the language they read.
 */
export const languageLoaders: Record<Language, () => Promise<Translation>> = {
  en: () => import("./en").then((module) => module.en),
  es: () => import("./es").then((module) => module.es),
  fr: () => import("./fr").then((module) => module.fr),
};

const isLoadable = (language: string): language is Language => Object.hasOwn(languageLoaders, language);

/** i18next asks this backend for a language it does not hold yet; `changeLanguage` waits for it. */
const lazyLanguages: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (!isLoadable(language)) {
      callback(null, {});
      return;
    }
    languageLoaders[language]().then(
      (resource) => callback(null, resource),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Remembers the last language on this browser so a reload does not flash English first. */
export const LANGUAGE_STORAGE_KEY = "sunfleet_language";

function storedLanguage(): Language | undefined {
  try {
    const parsed = languageSchema.safeParse(localStorage.getItem(LANGUAGE_STORAGE_KEY));
    return parsed.success ? parsed.data : undefined;
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
