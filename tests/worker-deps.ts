/**
 * The packages the worker test runtimes load pre-bundled (vitest.config.ts). Every entry that the
 * worker, the schema, the worker tests and the benchmarks import is listed: an entry left out would load the
 * package's own modules beside the bundle, and with them a second copy of its classes (a second
 * `HTTPException`, which the error handler would not recognise). tests/node/worker-deps.test.ts
 * holds the list to the imports.
 */
export const workerOptimizedDeps = [
  "@hono/zod-validator",
  "@noble/hashes/legacy.js",
  "@photostructure/tz-lookup",
  "drizzle-orm",
  "drizzle-orm/d1",
  "drizzle-orm/durable-sqlite",
  "drizzle-orm/durable-sqlite/migrator",
  "drizzle-orm/sqlite-core",
  "hono",
  "hono/body-limit",
  "hono/cors",
  "hono/factory",
  "hono/html",
  "hono/http-exception",
  "hono/request-id",
  "hono/utils/http-status",
  "hono/utils/types",
  "jose",
  "luxon",
  "papaparse",
  "suncalc",
  "zod",
];
