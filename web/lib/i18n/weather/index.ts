import { i18n } from "..";
import { weatherEn } from "./en";
import { weatherEs } from "./es";
import { weatherFr } from "./fr";

/*
 * The weather screens' strings (the weather page's cards, the demo's weather facts) live outside
 * the bundled resources, as the fleet lists' do: all three languages come with the chunks that
 * show them and are merged under `insights.weather.` on first use.
 */
export const weatherResources = { en: weatherEn, es: weatherEs, fr: weatherFr };

let added = false;

const addTo = (language: string) => {
  const resource = weatherResources[language as keyof typeof weatherResources];
  if (resource)
    i18n.addResourceBundle(language, "translation", { insights: { weather: resource } }, true, true);
};

/**
 * Adds the `insights.weather.` strings to every language held, and to each language as it loads;
 * call before rendering them. A language not loaded yet must not get them alone (i18next would
 * count it as loaded and never fetch its own strings).
 */
export function useWeatherStrings(): true {
  if (!added) {
    for (const language of Object.keys(weatherResources)) {
      if (i18n.hasResourceBundle(language, "translation")) addTo(language);
    }
    i18n.on("loaded", (loaded: Record<string, unknown>) => {
      for (const language of Object.keys(loaded)) addTo(language);
    });
    added = true;
  }
  return true;
}
