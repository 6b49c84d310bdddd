import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { type Language, languageSchema, languages } from "../../../schema/api/preferences";
import { en, type Translation } from "./en";

/**
 * English is bundled: it renders the first screen and is the fallback for any key a language lacks.
 * Every other language is a chunk of its own, fetched only when a visitor uses it.
 */
export const languageLoaders: Record<Exclude<Language, "en">, () => Promise<Translation>> = {
  es: () => import("./es").then((module) => module.es),
  fr: () => import("./fr").then((module) => module.fr),
};

const isLoadable = (language: string): language is keyof typeof languageLoaders =>
  Object.hasOwn(languageLoaders, language);

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

/**
 * Resolves once the language's strings are loaded: at once for English (bundled), after one chunk
 * for another language, so the first render is already translated.
 */
export async function initI18n(language: Language = storedLanguage() ?? "en") {
  if (i18n.isInitialized) return i18n;
  const ready = i18n
    .use(lazyLanguages)
    .use(initReactI18next)
    .init({
      resources: { en: { translation: en } },
      // Languages missing from `resources` come from the backend.
      partialBundledLanguages: true,
      lng: language,
      fallbackLng: "en",
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
