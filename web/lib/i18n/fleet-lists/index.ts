import { i18n } from "..";
import { fleetListsEn } from "./en";
import { fleetListsEs } from "./es";
import { fleetListsFr } from "./fr";

/*
 * The fleet lists' strings (search, filters, pages, groups and the map of the site screens)
 * live outside the bundled resources, so screens that never show them do not carry them: all
 * three languages come with the chunks that do and are merged under `fleetLists.` on first use, as the
 * alerting strings are.
 */
export const fleetListsResources = { en: fleetListsEn, es: fleetListsEs, fr: fleetListsFr };

let added = false;

const addTo = (language: string) => {
  const resource = fleetListsResources[language as keyof typeof fleetListsResources];
  if (resource) i18n.addResourceBundle(language, "translation", { fleetLists: resource }, true, true);
};

/**
 * Adds the `fleetLists.` strings to every language held, and to each language as it loads; call
 * before rendering them. A language not loaded yet must not get them alone (i18next would count it
 * as loaded and never fetch its own strings).
 */
export function useFleetListsStrings(): true {
  if (!added) {
    for (const language of Object.keys(fleetListsResources)) {
      if (i18n.hasResourceBundle(language, "translation")) addTo(language);
    }
    i18n.on("loaded", (loaded: Record<string, unknown>) => {
      for (const language of Object.keys(loaded)) addTo(language);
    });
    added = true;
  }
  return true;
}
