import { i18n } from "..";
import { verificationEn } from "./en";
import { verificationEs } from "./es";
import { verificationFr } from "./fr";

/*
 * The address verification's strings (the banner, the link's page, the account's status, the
 * invite's warning) live outside the bundled resources, so pages that never show them do not carry
 * them: all three languages come with the chunks that do and are merged under `verification.` on
 * first use, as the alerting strings are.
 */
export const verificationResources = { en: verificationEn, es: verificationEs, fr: verificationFr };

// Its own loader rather than lazyStrings (../lazy-strings): pages before sign-in and the app's
// banner carry it, and taking it from the shared module put the login page over its 100 KB budget.
let added = false;

const addTo = (language: string) => {
  const resource = verificationResources[language as keyof typeof verificationResources];
  if (resource) i18n.addResourceBundle(language, "translation", { verification: resource }, true, true);
};

/**
 * Adds the `verification.` strings to every language held, and to each language as it loads; call
 * before rendering them. A language not loaded yet must not get them alone (i18next would count it
 * as loaded and never fetch its own strings).
 */
export function useVerificationStrings(): true {
  if (!added) {
    for (const language of Object.keys(verificationResources)) {
      if (i18n.hasResourceBundle(language, "translation")) addTo(language);
    }
    i18n.on("loaded", (loaded: Record<string, unknown>) => {
      for (const language of Object.keys(loaded)) addTo(language);
    });
    added = true;
  }
  return true;
}
