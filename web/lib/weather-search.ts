import { type SiteListSearch, validateSiteListSearch } from "./site-list-search";

/*
 * The weather screen's URL search, apart from the site lists' module (which the app's first
 * download holds): only the weather screen's chunk takes it.
 */

/** The weather screen's search: the site lists' (its sites), and the page of plants without a site. */
export interface WeatherSearch extends SiteListSearch {
  plants?: number;
}

/** Reads the URL's search into a WeatherSearch: unknown keys and values are dropped. */
export function validateWeatherSearch(search: Record<string, unknown>): WeatherSearch {
  const plants = Number(search.plants);
  const sites = validateSiteListSearch(search);
  return Number.isInteger(plants) && plants > 1 ? { ...sites, plants: Math.min(plants, 1_000_000) } : sites;
}
