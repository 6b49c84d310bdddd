// The client's `zod` (vite.config.ts resolves the bare "zod" here): zod with `jitless` set before any
// schema is built, whichever lazily loaded chunk builds the first. The CSP allows no evaluated code;
// without this zod probes `Function("")` when it builds an object schema and the browser reports a
// violation. "zod/v4" is the same module as "zod", under a name the alias leaves alone.
import { config } from "zod/v4";

config({ jitless: true });

export * from "zod/v4";
