import { Hono } from "hono";
import { type ProviderRegistration, providerRegistrations } from "../schema/provider-registry";
import { type ProviderEmulator, providerEmulators } from "./emulators";
import { SandboxFaults } from "./faults";
import { geocoderSandbox } from "./geocoder";
import { mailSandbox } from "./mail";
import { weatherSandbox } from "./weather";

/** Options every vendor emulator receives: a clock, so tests can hold time still. */
export interface SandboxOptions {
  now?: () => number;
  /** The clock per-second rate limits are measured with (real time unless a benchmark drives it). */
  clock?: () => number;
  /** Rate-limit faults on demand; a fresh set unless one is handed in. */
  faults?: SandboxFaults;
  /**
   * The providers to emulate: the registration list and sandbox/emulators.ts unless a test
   * configuration that registers more providers hands in its own.
   */
  providers?: {
    registrations: readonly ProviderRegistration[];
    emulators: Readonly<Record<string, ProviderEmulator>>;
  };
}

/**
 * The provider sandbox: local emulators of the vendor clouds, speaking their protocols, for
 * development and tests. Never mounted by the production worker.
 * Mount points: each registered endpoint's `sandboxMount` (schema/provider-registry.ts), served by
 * its provider's emulator (sandbox/emulators.ts); /weather, /geocoder, and /mail (a mail catcher
 * speaking Resend's API, with a page of caught mail).
 */
export function createSandbox(options: SandboxOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const faults = options.faults ?? new SandboxFaults();
  const { registrations, emulators } = options.providers ?? {
    registrations: providerRegistrations,
    emulators: providerEmulators as Readonly<Record<string, ProviderEmulator>>,
  };
  const app = new Hono();
  app.get("/", (c) => c.json({ sandbox: "sunfleet provider sandbox", time: new Date(now()).toISOString() }));
  app.route("/weather", weatherSandbox({ now }));
  app.route("/geocoder", geocoderSandbox({ now }));
  app.route("/mail", mailSandbox({ now }));
  for (const registration of registrations) {
    if (registration.urls.length === 0) continue;
    const emulator = emulators[registration.id];
    if (!emulator)
      throw new Error(`${registration.id} is registered without an emulator in sandbox/emulators.ts`);
    const served = emulator({ now, clock: options.clock, faults });
    for (const mount of new Set(registration.urls.map((url) => url.sandboxMount))) {
      const mounted = served[mount];
      if (!mounted) throw new Error(`the ${registration.id} emulator serves nothing at ${mount}`);
      app.route(mount, mounted);
    }
  }
  return Object.assign(app, { faults });
}
