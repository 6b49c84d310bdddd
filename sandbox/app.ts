import { Hono } from "hono";
import { SandboxFaults } from "./faults";
import { froniusSandbox } from "./fronius";
import { geocoderSandbox } from "./geocoder";
import { mailSandbox } from "./mail";
import { smaAuthSandbox, smaDataSandbox } from "./sma";
import { solaxOpenApiSandbox, solaxTokenSandbox } from "./solax";
import { solisSandbox } from "./solis";
import { weatherSandbox } from "./weather";

/** Options every vendor emulator receives: a clock, so tests can hold time still. */
export interface SandboxOptions {
  now?: () => number;
  /** The clock per-second rate limits are measured with (real time unless a benchmark drives it). */
  clock?: () => number;
  /** Rate-limit faults on demand; a fresh set unless one is handed in. */
  faults?: SandboxFaults;
}

/**
 * The provider sandbox: local emulators of the vendor clouds, speaking their protocols, for
 * development and tests. Never mounted by the production worker.
 * Mount points: /solis, /fronius, /sma, /sma-auth, /solax, /solax-openapi, and /mail (a mail
 * catcher speaking Resend's API, with a page of caught mail).
 */
export function createSandbox(options: SandboxOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const faults = options.faults ?? new SandboxFaults();
  const app = new Hono();
  app.get("/", (c) => c.json({ sandbox: "sunfleet provider sandbox", time: new Date(now()).toISOString() }));
  // Vendor emulators (one line each):
  app.route("/weather", weatherSandbox({ now }));
  app.route("/geocoder", geocoderSandbox({ now }));
  app.route("/mail", mailSandbox({ now }));
  app.route("/fronius", froniusSandbox({ now, faults }));
  app.route("/solax", solaxTokenSandbox({ now, faults }));
  app.route("/solax-openapi", solaxOpenApiSandbox({ now, faults }));
  app.route("/solis", solisSandbox({ now, clock: options.clock, faults }));
  app.route("/sma", smaDataSandbox({ now, faults }));
  // The token endpoint shares SMA's per-credential limit.
  app.route("/sma-auth", smaAuthSandbox({ now, faults }));
  return Object.assign(app, { faults });
}
