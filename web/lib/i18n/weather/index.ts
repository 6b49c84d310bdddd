import { lazyStrings } from "../lazy-strings";
import { weatherEn } from "./en";
import { weatherEs } from "./es";
import { weatherFr } from "./fr";

/*
 * The weather screens' strings (the weather page's cards, the demo's weather facts) live outside
 * the bundled resources, as the fleet lists' do: all three languages come with the chunks that
 * show them and are merged under `insights.weather.` on first use.
 */
export const weatherResources = { en: weatherEn, es: weatherEs, fr: weatherFr };

/** Adds the strings to every language held and to each as it loads (lazyStrings); call before rendering them. */
export const useWeatherStrings = lazyStrings(weatherResources, (strings) => ({
  insights: { weather: strings },
}));
