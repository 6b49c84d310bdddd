import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Each test file gets its own isolated storage; migrate it before the file's tests run.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
