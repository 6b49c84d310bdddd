import { lazyStrings } from "../lazy-strings";
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

/** Adds the strings to every language held and to each as it loads (lazyStrings); call before rendering them. */
export const useLossesStrings = lazyStrings(lossesResources, (strings) => ({ losses: strings }));
