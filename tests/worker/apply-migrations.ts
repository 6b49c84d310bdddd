import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Migrates the file's storage before its tests run: its own, or (worker-shared) the runtime's, where
// migrations already applied are skipped.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
