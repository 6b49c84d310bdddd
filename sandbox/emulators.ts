import type { Hono } from "hono";
import type { ApiProviderId } from "../schema/provider-registry";
import type { SandboxFaults } from "./faults";
import { froniusSandbox } from "./fronius";
import { smaAuthSandbox, smaDataSandbox } from "./sma";
import { solaxOpenApiSandbox, solaxTokenSandbox } from "./solax";
import { solisSandbox } from "./solis";

/** What every vendor emulator receives from the sandbox. */
export interface EmulatorOptions {
  /** The simulated time (tests hold it still). */
  now: () => number;
  /** The clock per-second rate limits are measured with (real time unless a benchmark drives it). */
  clock?: () => number;
  /** The sandbox's faults (rate limits and standing faults on demand). */
  faults: SandboxFaults;
}

/** An emulator's app, whatever its own environment type (Hono's app types are invariant in it). */
// biome-ignore lint/suspicious/noExplicitAny: any environment, schema and base path
export type EmulatorApp = Hono<any, any, any>;

/**
 * A vendor emulator: an app for each sandbox mount its provider's registration names (an endpoint's
 * `sandboxMount`), speaking the vendor's protocol there, with its own sandbox accounts.
 */
export type ProviderEmulator = (options: EmulatorOptions) => Readonly<Record<`/${string}`, EmulatorApp>>;

/**
 * Each registered API provider's emulator, by id. The sandbox mounts them where the registrations
 * say (sandbox/app.ts); the compiler asks for one entry per API provider.
 */
export const providerEmulators = {
  solis: ({ now, clock, faults }) => ({ "/solis": solisSandbox({ now, clock, faults }) }),
  fronius: ({ now, faults }) => ({ "/fronius": froniusSandbox({ now, faults }) }),
  sma: ({ now, faults }) => ({
    "/sma": smaDataSandbox({ now, faults }),
    // The token endpoint shares SMA's per-credential limit.
    "/sma-auth": smaAuthSandbox({ now, faults }),
  }),
  solax: ({ now, faults }) => ({
    "/solax": solaxTokenSandbox({ now, faults }),
    "/solax-openapi": solaxOpenApiSandbox({ now, faults }),
  }),
} satisfies Record<ApiProviderId, ProviderEmulator>;
