import type { FleetStore } from "./fleet/store";
import type { VendorBudget } from "./providers/budget";
import type { ProviderUrlEnv } from "./providers/urls";
import type { Throttle } from "./throttle/throttle";

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
  /** Days raw inverter points are kept, when shorter than the systems' (the same by default). */
  INVERTER_RAW_RETENTION_DAYS?: string;
  /**
   * Bytes one organisation's fleet store may hold (a Durable Object's 10 GB unless set); at 70 %
   * of it the store tells the platform operator (a log line and the superAdmin's fleet store list).
   */
  FLEET_STORE_BOUND_BYTES?: string;
  /**
   * Systems one fleet store takes before an organisation's new systems go to a shard (5,000
   * unless set; worker/fleet/shards.ts).
   */
  FLEET_SHARD_SYSTEMS?: string;
  /** Days audit log entries are kept in D1 (365 by default; worker/cron/retention.ts). */
  AUDIT_RETENTION_DAYS?: string;
  /** One attempt counter per throttle key (sign-in, sign-up, invite acceptance, password change). */
  THROTTLE: DurableObjectNamespace<Throttle>;
  /** HS256 signing key for session tokens: any string of 32 or more characters. */
  JWT_SECRET: string;
  /**
   * The credentials keyring: `id:base64,id:base64` (32 random bytes each), newest last. New
   * writes use the newest key; each row names the key it was written with.
   */
  CREDENTIALS_KEYS?: string;
  /** A single key (32 random bytes, base64), read as the key with id `default` when CREDENTIALS_KEYS is unset. */
  CREDENTIALS_KEY?: string;
  /** Origins allowed to call the API from a browser (comma-separated); unset = same origin only. */
  CORS_ORIGINS?: string;
  APP_ENV: "development" | "test" | "production";
  /** Test suites only: PBKDF2 iterations for new password hashes (see worker/lib/password.ts). */
  PASSWORD_ITERATIONS?: string;
  /** Minutes a session may go unused before it must sign in again (720 unless set). */
  SESSION_IDLE_MINUTES?: string;
  /** Public origin used in invite links; defaults to the request's own origin. */
  APP_URL?: string;
  /** Open-Meteo-compatible weather service (default https://api.open-meteo.com). */
  WEATHER_API_URL?: string;
  /** Nominatim-compatible geocoder for address lookups; defaults to nominatim.openstreetmap.org. */
  GEOCODER_URL?: string;
  /** Test suites only: a shorter spacing between geocoder calls than the policy's 1000 ms. */
  GEOCODER_INTERVAL_MS?: string;
  /** Test suites only: a shorter geocoder answer time limit than 5000 ms. */
  GEOCODER_TIMEOUT_MS?: string;
  /** Resend-compatible e-mail API (default https://api.resend.com); `npm start` points it at the sandbox's catcher. */
  EMAIL_API_URL?: string;
  /** Bearer key of the e-mail API; without it mail waits in the outbox. */
  EMAIL_API_KEY?: string;
  /** Sender of every e-mail, e.g. `Sunfleet <alerts@example.com>`. */
  EMAIL_FROM?: string;
  /** Sync runs, one small unit per message (worker/sync/run.ts). */
  SYNC_QUEUE: Queue<SyncMessage>;
  /**
   * How long a user-started sync (and the first sync after saving credentials) works before
   * answering 202 and going on in the queue; 20000 ms unless set (tests shorten it).
   */
  SYNC_ANSWER_WITHIN_MS?: string;
  /** Test suites only: a shorter vendor call time limit than 10000 ms (worker/providers/http.ts). */
  PROVIDER_CALL_TIMEOUT_MS?: string;
  /** Test suites only: less time for one sync unit's vendor calls than 120000 ms. */
  SYNC_UNIT_LIMIT_MS?: string;
  /** "off" leaves a successful run without its history backfill (the test suites, except where a test asks). */
  SYNC_HISTORY?: string;
}

/** The kinds of unit a run is made of; each has its own cursor, kept on the run's row. */
export type SyncUnitKind = "snapshot" | "history";

/**
 * A queue message: start a connection's run (the scheduler's), or do unit number `unit` of a run.
 * The unit's cursor is on the run's row, not in the message: it can outgrow a message, and a
 * repeated or outdated message is told apart by its number.
 */
export type SyncMessage =
  | {
      kind: "start";
      connectionId: string;
      /** Times this start found background history on the connection and waited for it to make way. */
      waited?: number;
    }
  | { kind: SyncUnitKind; runId: string; unit: number };
