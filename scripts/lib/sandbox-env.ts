// The worker's variables under `npm start` (scripts/start.mjs loads this through tsx): every
// registered vendor URL and the other outside services pointed at the local sandbox.
import { providerUrlRegistrations, sandboxUrlVariables } from "../../schema/provider-registry";

/** The worker's variables when the sandbox serves at `sandboxOrigin` and the app at `appOrigin`. */
export function sandboxVariables(sandboxOrigin: string, appOrigin: string): Record<string, string> {
  return {
    ...sandboxUrlVariables(sandboxOrigin),
    WEATHER_API_URL: `${sandboxOrigin}/weather`,
    GEOCODER_URL: `${sandboxOrigin}/geocoder`,
    EMAIL_API_URL: `${sandboxOrigin}/mail`,
    EMAIL_API_KEY: "sandbox",
    // Links in e-mail sent by the cron (no request to take an origin from).
    APP_URL: appOrigin,
  };
}

const providerVariables = new Set<string>(providerUrlRegistrations.map((url) => url.env));

/**
 * The environment variables `npm start --no-sandbox` hands the worker (a benchmark's own sandbox,
 * a real vendor): the registered vendor URLs, the other services' URLs and keys, the app's URL and
 * the sync settings.
 */
export const passedThrough = (name: string): boolean =>
  providerVariables.has(name) ||
  /^(WEATHER|GEOCODER|EMAIL)_[A-Z_]*(URL|KEY)$|^APP_URL$|^SYNC_[A-Z_]+$/.test(name);
