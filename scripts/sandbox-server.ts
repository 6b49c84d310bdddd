// The provider sandbox as a local HTTP server: `npm start` runs it and points the provider URLs
// at it. Usage: tsx scripts/sandbox-server.ts [--port 8788]
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { createSandbox } from "../sandbox/app";

const { values } = parseArgs({
  options: { port: { type: "string", default: process.env.SANDBOX_PORT ?? "8788" } },
});
const port = Number(values.port);

serve({ fetch: createSandbox().fetch, port, hostname: "127.0.0.1" }, () => {
  console.log(`Provider sandbox listening on http://127.0.0.1:${port}`);
});
