import { z } from "zod";
import { connectionStatuses, syncOutcomes, syncTriggers } from "../domain";
import { registeredProviderIds } from "../provider-registry";

/** Derived from the one registration list (schema/provider-registry.ts). */
export const providerIds = registeredProviderIds;
export const providerIdSchema = z.enum(providerIds);
export type ProviderId = z.infer<typeof providerIdSchema>;

export const providerSchema = z.object({
  id: providerIdSchema,
  name: providerIdSchema,
  displayName: z.string(),
  description: z.string(),
  /** How data arrives: a polled cloud API, or files exported from the vendor's portal. */
  ingestion: z.enum(["api", "csv-import"]),
});
export type Provider = z.infer<typeof providerSchema>;

export const credentialFieldSchema = z.object({
  field: z.string(),
  name: z.string(),
  label: z.string(),
  type: z.enum(["text", "password", "url", "email", "select", "textarea"]),
  placeholder: z.string(),
  defaultValue: z.string().optional(),
  required: z.boolean(),
  description: z.string(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
});
export type CredentialField = z.infer<typeof credentialFieldSchema>;

export const providerCredentialSchemaResponse = z.object({
  provider: providerIdSchema,
  fields: z.array(credentialFieldSchema),
});

/** Credentials as the form sends them: field name to value. Each provider validates its own. */
export const credentialValuesSchema = z.record(z.string().max(64), z.string().max(4096));

export const saveCredentialsBodySchema = z.strictObject({
  provider: providerIdSchema,
  credentials: credentialValuesSchema,
});
export const testCredentialsBodySchema = z.strictObject({ credentials: credentialValuesSchema });

export const configuredCredentialSchema = z.object({
  provider: providerIdSchema,
  status: z.enum(connectionStatuses),
  updatedAt: z.string(),
  lastSyncAt: z.string().nullable(),
  lastSyncStatus: z.enum(syncOutcomes).nullable(),
  lastError: z.string().nullable(),
  newestDataAt: z.string().nullable(),
  nextSyncAt: z.string().nullable(),
  /** Scheduled syncs that went well within one invocation: counted, not listed in the run history. */
  routineSyncs: z.number(),
  systemsCount: z.number(),
});
export type ConfiguredCredential = z.infer<typeof configuredCredentialSchema>;

export const testResultSchema = z.object({ sitesFound: z.number(), message: z.string() });
export type TestResult = z.infer<typeof testResultSchema>;
export const syncResultSchema = z.object({
  message: z.string(),
  sitesCount: z.number(),
  invertersCount: z.number(),
  status: z.enum(syncOutcomes),
});
export type SyncResult = z.infer<typeof syncResultSchema>;

/** `POST /api/credentials`: `sync` is the first sync's outcome, null for import-only providers. */
export const savedCredentialsSchema = z.object({ message: z.string(), sync: syncResultSchema.nullable() });
export type SavedCredentials = z.infer<typeof savedCredentialsSchema>;

/** Where a sync run stands: the `sync_progress` live message, and part of a running sync's answer. */
export const syncProgressSchema = z.object({
  runId: z.string(),
  provider: providerIdSchema,
  status: z.enum(syncOutcomes),
  pagesDone: z.number(),
  /** Null until the vendor has said how many pages the account has. */
  pagesTotal: z.number().nullable(),
  systemsStored: z.number(),
  invertersStored: z.number(),
  /** The failure in plain words once a run has failed. */
  error: z.string().nullable(),
  /** A history run's plant-days stored and planned (absent on snapshot runs). */
  historyDaysDone: z.number().optional(),
  historyDaysTotal: z.number().optional(),
});
export type SyncProgress = z.infer<typeof syncProgressSchema>;

/** `POST /api/providers/{p}/sync` when the run goes on past the answer time (HTTP 202). */
export const runningSyncSchema = z.object({
  runId: z.string(),
  status: z.literal("running"),
  progress: syncProgressSchema,
});
export type RunningSync = z.infer<typeof runningSyncSchema>;

/** One run of a connection, as `GET /api/providers/{p}/runs` lists them (newest first). */
export const syncRunSchema = z.object({
  id: z.string(),
  provider: providerIdSchema,
  trigger: z.enum(syncTriggers),
  status: z.enum(syncOutcomes),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** What the failure was (auth, rate_limited, timeout, malformed, …); null unless the run failed. */
  errorKind: z.string().nullable(),
  sitesCount: z.number(),
  invertersCount: z.number(),
  readingsCount: z.number(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;

/** `GET /api/sync-runs/{id}`: the run with where it stands. */
export const syncRunViewSchema = syncRunSchema.extend({ progress: syncProgressSchema });
export type SyncRunView = z.infer<typeof syncRunViewSchema>;
