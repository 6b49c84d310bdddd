import { defineConfig } from "drizzle-kit";

/** Migrations of the per-organisation fleet store (a SQLite-backed Durable Object), bundled into the worker. */
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./schema/fleet-tables.ts",
  out: process.env.DRIZZLE_OUT ?? "./worker/fleet/migrations",
});
