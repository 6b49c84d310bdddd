import { Hono } from "hono";
import { z } from "zod";
import { messageResponseSchema } from "../../schema/api/common";
import { meteronlineImportBodySchema, meteronlineImportResultSchema } from "../../schema/api/meteronline";
import {
  configuredCredentialSchema,
  providerCredentialSchemaResponse,
  providerSchema,
  saveCredentialsBodySchema,
  savedCredentialsSchema,
  syncResultSchema,
  syncRunSchema,
  syncRunViewSchema,
  testCredentialsBodySchema,
  testResultSchema,
} from "../../schema/api/providers";
import { type AppContext, type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import {
  deleteCredentials,
  getSyncRun,
  listCredentials,
  listProviders,
  listRuns,
  requireProvider,
  saveCredentials,
  syncNow,
  testCredentials,
} from "../services/connections";
import { importMeteronlineCsv } from "../services/meteronline-import";

const providerParam = z.strictObject({ provider: z.string().min(1).max(32) });

/**
 * The caller's context with the request's waitUntil: a sync answers at its answer time and the
 * unit in flight finishes after the answer. Hono throws when the request has no execution context.
 */
function syncContext(c: AppContext) {
  let waitUntil: ((promise: Promise<unknown>) => void) | undefined;
  try {
    const executionCtx = c.executionCtx;
    waitUntil = (promise) => executionCtx.waitUntil(promise);
  } catch {
    waitUntil = undefined;
  }
  return { ...userContext(c), waitUntil };
}

export const providersRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("Providers", z.array(providerSchema)), (c) => c.json(listProviders()))
  .get(
    "/:provider/schema",
    responds("ProviderCredentialSchema", providerCredentialSchemaResponse),
    validate("param", providerParam),
    (c) => {
      const provider = requireProvider(c.req.valid("param").provider);
      return c.json({ provider: provider.id, fields: provider.fields });
    },
  )
  .post(
    "/meteronline/import",
    responds("MeteronlineImportResult", meteronlineImportResultSchema),
    validate("json", meteronlineImportBodySchema),
    async (c) => c.json(await importMeteronlineCsv(userContext(c), c.req.valid("json"))),
  )
  // 202 with RunningSync when the run outlasts the answer time (described in the OpenAPI document).
  .post(
    "/:provider/sync",
    responds("SyncResult", syncResultSchema),
    validate("param", providerParam),
    async (c) => {
      const outcome = await syncNow(syncContext(c), c.req.valid("param").provider);
      return outcome.done ? c.json(outcome.result, 200) : c.json(outcome.running, 202);
    },
  )
  .get(
    "/:provider/runs",
    responds("SyncRuns", z.array(syncRunSchema)),
    validate("param", providerParam),
    async (c) => c.json(await listRuns(userContext(c), c.req.valid("param").provider)),
  );

export const credentialsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("ConfiguredCredentials", z.array(configuredCredentialSchema)), async (c) =>
    c.json(await listCredentials(userContext(c))),
  )
  .post(
    "/",
    responds("SavedCredentials", savedCredentialsSchema, { status: 201 }),
    validate("json", saveCredentialsBodySchema),
    async (c) => c.json(await saveCredentials(syncContext(c), c.req.valid("json")), 201),
  )
  .post(
    "/:provider/test",
    responds("TestResult", testResultSchema),
    validate("param", providerParam),
    validate("json", testCredentialsBodySchema),
    async (c) =>
      c.json(
        await testCredentials(userContext(c), c.req.valid("param").provider, c.req.valid("json").credentials),
      ),
  )
  .delete(
    "/:provider",
    responds("Message", messageResponseSchema),
    validate("param", providerParam),
    async (c) => c.json(await deleteCredentials(userContext(c), c.req.valid("param").provider)),
  );

const runParam = z.strictObject({ id: z.string().min(1).max(64) });

export const syncRunsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/:id", responds("SyncRunView", syncRunViewSchema), validate("param", runParam), async (c) =>
    c.json(await getSyncRun(userContext(c), c.req.valid("param").id)),
  );
