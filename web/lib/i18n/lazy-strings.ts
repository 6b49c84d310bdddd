import { i18n } from ".";

/** A string set in each of the app's languages. */
export interface LanguageStrings<T> {
  en: T;
  es: T;
  fr: T;
}

/**
 * A set of strings kept outside the bundled resources, so screens that never show them do not carry
 * them: all three languages come with the chunks that do. The answer merges them (where `place`
 * puts them, e.g. `{ losses: strings }`) into every language held and into each language as it
 * loads; call it before rendering them. A language not loaded yet must not get them alone (i18next
 * would count it as loaded and never fetch its own strings).
 */
export function lazyStrings<T extends object>(
  resources: LanguageStrings<T>,
  place: (strings: T) => object,
): () => true {
  let added = false;
  const addTo = (language: string) => {
    const strings = resources[language as keyof LanguageStrings<T>];
    if (strings) i18n.addResourceBundle(language, "translation", place(strings), true, true);
  };
  return () => {
    if (!added) {
      for (const language of Object.keys(resources)) {
        if (i18n.hasResourceBundle(language, "translation")) addTo(language);
      }
      i18n.on("loaded", (loaded: Record<string, unknown>) => {
        for (const language of Object.keys(loaded)) addTo(language);
      });
      added = true;
    }
    return true;
  };
}
