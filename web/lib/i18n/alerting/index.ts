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

/** Adds the `alerting.` strings to every language once; call before rendering them. */
export function useAlertingStrings(): true {
  if (!added) {
    for (const [language, resource] of Object.entries(alertingResources)) {
      i18n.addResourceBundle(language, "translation", { alerting: resource }, true, true);
    }
    added = true;
  }
  return true;
}
