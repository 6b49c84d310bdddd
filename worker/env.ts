import type { FleetStore } from "./fleet/store";
import type { VendorBudget } from "./providers/budget";
import type { ProviderUrlEnv } from "./providers/urls";

/** Bindings and secrets the worker runs with (wrangler.toml, .dev.vars, `wrangler secret`). */
export interface Env extends ProviderUrlEnv {
  DB: D1Database;
  ASSETS: Fetcher;
  /** One fleet store per organisation: its readings, rollups, live values, read models and sockets. */
  FLEET_STORE: DurableObjectNamespace<FleetStore>;
  /** One call budget per vendor credential, shared by every invocation that calls the vendor with it. */
  VENDOR_BUDGET: DurableObjectNamespace<VendorBudget>;
  /** Days raw 5-minute points are kept in the fleet stores (35 by default); rollups are kept. */
  RAW_RETENTION_DAYS?: string;
  /** HS256 signing key for session tokens: any string of 32 or more characters. */
  JWT_SECRET: string;
  /** 32 random bytes, base64: encrypts provider credentials. */
  CREDENTIALS_KEY: string;
  APP_ENV: "development" | "test" | "production";
  /** Test suites only: PBKDF2 iterations for new password hashes (see worker/lib/password.ts). */
  PASSWORD_ITERATIONS?: string;
  /** Public origin used in invite links; defaults to the request's own origin. */
  APP_URL?: string;
  /** Open-Meteo-compatible weather service (default https://api.open-meteo.com). */
  WEATHER_API_URL?: string;
  /** Nominatim-compatible geocoder for address lookups; defaults to nominatim.openstreetmap.org. */
  GEOCODER_URL?: string;
  /** Hands each due connection's sync to its own queue invocation. */
  SYNC_QUEUE: Queue<SyncMessage>;
}

export interface SyncMessage {
  connectionId: string;
}
