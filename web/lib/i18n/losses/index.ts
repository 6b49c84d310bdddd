import { i18n } from "..";
import { lossesEn } from "./en";
import { lossesEs } from "./es";
import { lossesFr } from "./fr";

/*
 * The losses' strings (a site's screen, the fleet's losses, the price and orientation editors)
 * live outside the bundled resources, so screens that never show them do not carry them: all
 * three languages come with the chunks that do and are merged under `losses.` on first use, as the
 * alerting strings are.
 */
export const lossesResources = { en: lossesEn, es: lossesEs, fr: lossesFr };

let added = false;

const addTo = (language: string) => {
  const resource = lossesResources[language as keyof typeof lossesResources];
  if (resource) i18n.addResourceBundle(language, "translation", { losses: resource }, true, true);
};

/**
 * Adds the `losses.` strings to every language held, and to each language as it loads; call
 * before rendering them. A language not loaded yet must not get them alone (i18next would count it
 * as loaded and never fetch its own strings).
 */
export function useLossesStrings(): true {
  if (!added) {
    for (const language of Object.keys(lossesResources)) {
      if (i18n.hasResourceBundle(language, "translation")) addTo(language);
    }
    i18n.on("loaded", (loaded: Record<string, unknown>) => {
      for (const language of Object.keys(loaded)) addTo(language);
    });
    added = true;
  }
  return true;
}
