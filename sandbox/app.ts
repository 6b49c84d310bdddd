import { Hono } from "hono";
import { froniusSandbox } from "./fronius";
import { geocoderSandbox } from "./geocoder";
import { smaAuthSandbox, smaDataSandbox } from "./sma";
import { solaxOpenApiSandbox, solaxTokenSandbox } from "./solax";
import { solisSandbox } from "./solis";
import { weatherSandbox } from "./weather";

/** Options every vendor emulator receives: a clock, so tests can hold time still. */
export interface SandboxOptions {
  now?: () => number;
  /** The clock per-second rate limits are measured with (real time unless a benchmark drives it). */
  clock?: () => number;
}

/**
 * The provider sandbox: local emulators of the vendor clouds, speaking their protocols, for
 * development and tests. Never mounted by the production worker.
 * Mount points: /solis, /fronius, /sma, /sma-auth, /solax, /solax-openapi.
 */
export function createSandbox(options: SandboxOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const app = new Hono();
  app.get("/", (c) => c.json({ sandbox: "sunfleet provider sandbox", time: new Date(now()).toISOString() }));
  // Vendor emulators (one line each):
  app.route("/weather", weatherSandbox({ now }));
  app.route("/geocoder", geocoderSandbox({ now }));
  app.route("/fronius", froniusSandbox({ now }));
  app.route("/solax", solaxTokenSandbox({ now }));
  app.route("/solax-openapi", solaxOpenApiSandbox({ now }));
  app.route("/solis", solisSandbox({ now, clock: options.clock }));
  app.route("/sma", smaDataSandbox({ now }));
  app.route("/sma-auth", smaAuthSandbox({ now }));
  return app;
}
