import { lazyStrings } from "../lazy-strings";
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

/** Adds the strings to every language held and to each as it loads (lazyStrings); call before rendering them. */
export const useFleetListsStrings = lazyStrings(fleetListsResources, (strings) => ({ fleetLists: strings }));
