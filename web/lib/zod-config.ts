import { z } from "zod";

// The CSP allows no evaluated code; without this zod probes `Function("")` on its first parse
// and the browser reports a violation. Imported first by main.tsx, before any schema parses.
z.config({ jitless: true });
