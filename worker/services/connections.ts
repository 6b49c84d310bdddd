import type { ZodError } from "zod";
import {
  type ConfiguredCredential,
  type Provider,
  type ProviderId,
  providerIdSchema,
  type RunningSync,
  type SyncResult,
  type SyncRunView,
} from "../../schema/api/providers";
import type { ProviderConnectionRow, SyncRunRow } from "../../schema/tables";
import {
  adoptImportedSystemsQuery,
  deleteConnection,
  findConnection,
  findOrgSyncRun,
  listConnectionsWithCounts,
  listSyncRuns,
  upsertConnection,
} from "../data/connections";
import { sealCredentials } from "../lib/connection-secrets";
import { loadKeyring } from "../lib/credentials-keyring";
import {
  ApiError,
  conflict,
  invalidField,
  invalidInput,
  invalidRequest,
  notFound,
  tooManyRequests,
} from "../lib/errors";
import { ProviderError } from "../providers/errors";
import { findApiAdapter, findProvider, outboundProblem, providerDefinitions } from "../providers/registry";
import type { ProviderDefinition } from "../providers/types";
import { providerUrls } from "../providers/urls";
import { type CallerSyncResult, syncForCaller, testVendorConnection, toProgress } from "../sync";
import type { RatePolicy } from "../throttle/rate";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toProvider = (p: ProviderDefinition): Provider => ({
  id: p.id,
  name: p.id,
  displayName: p.displayName,
  description: p.description,
  ingestion: p.ingestion,
});

export const listProviders = (): Provider[] => providerDefinitions.map(toProvider);

export function requireProvider(id: string): ProviderDefinition {
  const parsed = providerIdSchema.safeParse(id);
  const provider = parsed.success ? findProvider(parsed.data) : undefined;
  if (!provider) throw notFound("provider", "Provider");
  return provider;
}

/**
 * Checks the form values against the provider's fields: "Missing required fields" with the
 * labels to fill in (the settings screen's text, docs/product.md), then the provider's own rules; unknown fields are refused.
 */
function parseCredentialValues(
  provider: ProviderDefinition,
  values: Record<string, string>,
  env: OrgContext["env"],
): unknown {
  const known = new Set(provider.fields.map((f) => f.field));
  const unknown = Object.keys(values).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw invalidInput(
      "Unknown credential fields",
      unknown.map((name) => ({ path: [name], message: "Unknown field", code: "unrecognized_keys" })),
    );
  }
  const missing = provider.fields
    .filter((f) => f.required && !(values[f.field] ?? "").trim())
    .map((f) => f.label);
  if (missing.length > 0) {
    throw new ApiError({
      code: "missing_fields",
      message: "Missing required fields",
      details: {
        missing,
        message: `Please fill in: ${missing.join(", ")}`,
      },
    });
  }
  const adapter = findApiAdapter(provider.id);
  if (!adapter) return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
  const parsed = adapter.credentialsSchema.safeParse(values);
  if (!parsed.success) {
    const issues = (parsed.error as ZodError).issues.map(({ path, message }) => ({ path, message }));
    throw invalidInput(issues[0]?.message ?? "Invalid credentials", issues);
  }
  const refused = outboundProblem(adapter, parsed.data, providerUrls(env));
  if (refused) throw invalidField("apiUrl", refused);
  return parsed.data;
}

function vendorFailure(provider: ProviderDefinition, error: ProviderError): ApiError {
  // Rejected credentials are the user's input; anything else is the vendor failing us.
  const status = error.kind === "auth" || error.kind === "invalid_request" ? 400 : 502;
  return new ApiError({
    code: "provider_failure",
    status,
    message: `${provider.displayName}: ${error.message}`,
    details: { provider: provider.id, kind: error.kind },
  });
}

/**
 * Connection tests an organisation may send to vendors: 10 at once, then one every 6 s (10 a
 * minute). Each test calls the vendor with whatever key it is given, so without a limit one
 * tenant could hammer a vendor (and a key id it does not own) through us.
 */
export const CONNECTION_TEST_SHARE: RatePolicy = { burst: 10, intervalMs: 6000 };

async function takeConnectionTest(ctx: OrgContext): Promise<void> {
  const counter = ctx.env.THROTTLE.get(ctx.env.THROTTLE.idFromName(`connection-tests:${ctx.user.orgId}`));
  const decision = await counter.takeRate(CONNECTION_TEST_SHARE, ctx.now);
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw tooManyRequests(
      `Too many connection tests from this organisation; try again in ${seconds} s`,
      seconds,
    );
  }
}

export async function testCredentials(
  ctx: UserContext,
  providerId: string,
  values: Record<string, string>,
): Promise<{ sitesFound: number; message: string }> {
  const org = authorizeOrgAction(ctx, "credentials:manage");
  const provider = requireProvider(providerId);
  const credentials = parseCredentialValues(provider, values, ctx.env);
  const adapter = findApiAdapter(provider.id);
  if (!adapter) {
    return {
      sitesFound: 0,
      message: `${provider.displayName} data arrives by CSV import; there is nothing to test.`,
    };
  }
  // Counted only for tests that reach a vendor: a form refused above costs nothing.
  await takeConnectionTest(org);
  try {
    const { sitesFound } = await testVendorConnection(
      { env: ctx.env, fetch: ctx.providerFetch },
      adapter,
      credentials,
    );
    return { sitesFound, message: `${provider.displayName} accepted the credentials.` };
  } catch (error) {
    if (error instanceof ProviderError) throw vendorFailure(provider, error);
    throw error;
  }
}

function toSyncResult(provider: ProviderDefinition, result: CallerSyncResult): SyncResult {
  if (result.status === "success") {
    return {
      status: "success",
      sitesCount: result.sitesCount,
      invertersCount: result.invertersCount,
      message: `Successfully synced ${result.sitesCount} sites and ${result.invertersCount} inverters from ${provider.displayName}`,
    };
  }
  if (result.status === "busy") {
    return { status: "running", sitesCount: 0, invertersCount: 0, message: "A sync is already running" };
  }
  if (result.status === "running") {
    return {
      status: "running",
      sitesCount: result.run.sitesCount,
      invertersCount: result.run.invertersCount,
      message: "Data sync started in background",
    };
  }
  return { status: "failed", sitesCount: 0, invertersCount: 0, message: result.error };
}

/** A sync the caller waits for: answered by the answer time, the rest goes on in the background. */
const syncForOrg = (org: OrgContext, connectionId: string, trigger: "manual" | "save") =>
  syncForCaller(
    { db: org.db, env: org.env, now: () => Date.now(), fetch: org.providerFetch },
    {
      orgId: org.user.orgId,
      connectionId,
      trigger,
      requestedAt: org.now,
      waitUntil: org.waitUntil,
    },
  );

export async function saveCredentials(
  ctx: UserContext,
  body: { provider: ProviderId; credentials: Record<string, string> },
): Promise<{ message: string; sync: SyncResult | null }> {
  const org = authorizeOrgAction(ctx, "credentials:manage");
  const provider = requireProvider(body.provider);
  const credentials = parseCredentialValues(provider, body.credentials, ctx.env);
  const keyring = await loadKeyring(org.env);
  // The connection keeps its id when credentials are saved again: the encryption binds it.
  const connectionId = (await findConnection(org.db, org.user.orgId, provider.id))?.id ?? crypto.randomUUID();
  const sealed = await sealCredentials(keyring, org.user.orgId, connectionId, credentials);
  const adapter = findApiAdapter(provider.id);
  await org.db.batch([
    upsertConnection(org.db, {
      id: connectionId,
      orgId: org.user.orgId,
      provider: provider.id,
      ...sealed,
      status: "active",
      nextSyncAt: adapter ? org.now : null,
      createdAt: org.now,
      updatedAt: org.now,
    }),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "credentials.save",
      targetType: "provider",
      targetId: provider.id,
    }),
  ]);
  if (!adapter) {
    await adoptImportedSystems(org, provider.id);
    return { message: `${provider.displayName} settings saved. Import CSV exports to add data.`, sync: null };
  }
  const connection = await findConnection(org.db, org.user.orgId, provider.id);
  if (!connection) throw notFound("connection", "Connection");
  const sync = toSyncResult(provider, await syncForOrg(org, connection.id, "save"));
  const message =
    sync.status === "failed"
      ? `Credentials saved, but the first sync failed: ${sync.message}`
      : `Provider credentials have been securely stored. ${sync.message}.`;
  return { message, sync };
}

/** Systems imported before the connection existed become the connection's. */
async function adoptImportedSystems(org: OrgContext, providerId: ProviderId) {
  const connection = await findConnection(org.db, org.user.orgId, providerId);
  if (!connection) return;
  await adoptImportedSystemsQuery(org.db, org.user.orgId, providerId, connection.id);
}

function toConfigured(row: ProviderConnectionRow, systemsCount: number): ConfiguredCredential {
  return {
    provider: row.provider,
    status: row.status,
    updatedAt: new Date(row.updatedAt).toISOString(),
    lastSyncAt: iso(row.lastSyncAt),
    lastSyncStatus: row.lastSyncStatus,
    lastError: row.lastError,
    newestDataAt: iso(row.newestDataAt),
    nextSyncAt: iso(row.nextSyncAt),
    routineSyncs: row.routineSyncs,
    systemsCount,
  };
}

export async function listCredentials(ctx: UserContext): Promise<ConfiguredCredential[]> {
  const org = authorizeOrgAction(ctx, "org:read");
  const rows = await listConnectionsWithCounts(org.db, org.user.orgId);
  return rows.map((r) => toConfigured(r.connection, r.systemsCount));
}

async function requireConnection(org: OrgContext, providerId: string) {
  const provider = requireProvider(providerId);
  const connection = await findConnection(org.db, org.user.orgId, provider.id);
  if (!connection) throw notFound("connection", "Provider connection");
  return { provider, connection };
}

export async function deleteCredentials(ctx: UserContext, providerId: string): Promise<{ message: string }> {
  const org = authorizeOrgAction(ctx, "credentials:manage");
  const { provider } = await requireConnection(org, providerId);
  // Systems and readings stay: removing a connection stops syncing, it does not erase history.
  await org.db.batch([
    deleteConnection(org.db, org.user.orgId, provider.id),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "credentials.delete",
      targetType: "provider",
      targetId: provider.id,
    }),
  ]);
  return { message: `${provider.displayName} credentials removed` };
}

/**
 * A sync the user starts goes to the vendor at once, whatever the backoff. It answers the run's
 * outcome when the run ends within the answer time, otherwise that the run goes on (202).
 */
export async function syncNow(
  ctx: UserContext,
  providerId: string,
): Promise<{ done: true; result: SyncResult } | { done: false; running: RunningSync }> {
  const org = authorizeOrgAction(ctx, "credentials:manage");
  const { provider, connection } = await requireConnection(org, providerId);
  if (!findApiAdapter(provider.id)) {
    throw invalidRequest(
      "import_only_provider",
      `${provider.displayName} data arrives by CSV import, not by sync`,
    );
  }
  await auditEntry(org, {
    orgId: org.user.orgId,
    actorId: org.user.id,
    actorEmail: org.user.email,
    action: "credentials.sync",
    targetType: "provider",
    targetId: provider.id,
  });
  const outcome = await syncForOrg(org, connection.id, "manual");
  if (outcome.status === "busy") {
    // A snapshot run already going (the scheduler's, or another member's) is the sync asked for:
    // the answer follows it, as for a run that outlasts the answer time. History that did not make
    // way in time is refused as busy.
    const run = outcome.holder;
    if (run?.status !== "running" || run.trigger === "history") {
      throw conflict("sync_running", "A sync for this provider is already running");
    }
    return { done: false, running: { runId: run.id, status: "running", progress: toProgress(run) } };
  }
  if (outcome.status === "running") {
    return {
      done: false,
      running: { runId: outcome.runId, status: "running", progress: toProgress(outcome.run) },
    };
  }
  const result = toSyncResult(provider, outcome);
  if (outcome.status === "failed") {
    const connectionAfter = await findConnection(org.db, org.user.orgId, provider.id);
    const status = connectionAfter?.status === "needs_attention" ? 400 : 502;
    throw new ApiError({
      code: "provider_failure",
      status,
      message: result.message,
      details: { provider: provider.id, kind: outcome.errorKind, status: connectionAfter?.status },
    });
  }
  return { done: true, result };
}

/** One run of the caller's organisation; another organisation's is not found. */
export async function getSyncRun(ctx: UserContext, runId: string): Promise<SyncRunView> {
  const org = authorizeOrgAction(ctx, "org:read");
  const run = await findOrgSyncRun(org.db, org.user.orgId, runId);
  if (!run) throw notFound("sync_run", "Sync run");
  return { ...toRunView(run), progress: toProgress(run) };
}

export async function listRuns(ctx: UserContext, providerId: string) {
  const org = authorizeOrgAction(ctx, "org:read");
  const { connection } = await requireConnection(org, providerId);
  const runs = await listSyncRuns(org.db, org.user.orgId, connection.id, 20);
  return runs.map(toRunView);
}

function toRunView(r: SyncRunRow) {
  return {
    id: r.id,
    provider: r.provider,
    trigger: r.trigger,
    status: r.status,
    startedAt: new Date(r.startedAt).toISOString(),
    finishedAt: iso(r.finishedAt),
    error: r.error,
    errorKind: r.errorKind,
    sitesCount: r.sitesCount,
    invertersCount: r.invertersCount,
    readingsCount: r.readingsCount,
  };
}
