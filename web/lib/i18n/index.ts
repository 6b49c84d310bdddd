import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { type Language, languageSchema } from "../../../schema/api/preferences";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";

export const resources = {
  en: { translation: en },
  es: { translation: es },
  fr: { translation: fr },
} as const;

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

/** Synchronous: the resources are bundled, so the first render is already translated. */
export function initI18n(language: Language = storedLanguage() ?? "en") {
  if (i18n.isInitialized) return i18n;
  i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: "en",
    supportedLngs: ["en", "es", "fr"],
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
  return i18n;
}

export { i18n };
