import { i18n } from "..";
import { alertingEn } from "./en";
import { alertingEs } from "./es";
import { alertingFr } from "./fr";

/*
 * The alerting screens' strings (the bell's list, alert actions, alert rules) live outside the
 * bundled English resource, so public pages do not carry them: all three languages come with
 * the chunks of those screens and are merged under `alerting.` on first use.
 */
export const alertingResources = { en: alertingEn, es: alertingEs, fr: alertingFr };

let added = false;

const addTo = (language: string) => {
  const resource = alertingResources[language as keyof typeof alertingResources];
  if (resource) i18n.addResourceBundle(language, "translation", { alerting: resource }, true, true);
};

/**
 * Adds the `alerting.` strings to every language held, and to each language as it loads; call
 * before rendering them. A language not loaded yet must not get them alone: i18next would count it
 * as loaded and never fetch its own strings (a screen opened first in Spanish showed keys).
 */
export function useAlertingStrings(): true {
  if (!added) {
    for (const language of Object.keys(alertingResources)) {
      if (i18n.hasResourceBundle(language, "translation")) addTo(language);
    }
    i18n.on("loaded", (loaded: Record<string, unknown>) => {
      for (const language of Object.keys(loaded)) addTo(language);
    });
    added = true;
  }
  return true;
}
