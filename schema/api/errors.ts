import { z } from "zod";
import { providerIdSchema } from "./providers";

/**
 * Every error answer is `{ error, code, details? }`: `error` is for people (and quotes the
 * product's own texts), `code` is for programs and comes from this one closed list, and
 * `details` has one shape per code. The client translates codes, never `error`.
 */

/** One field the input got wrong; `path` names the field, `code` is zod's issue code when zod found it. */
export const validationIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string().optional(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** What a 404 was looking for, so the client can name it in the user's language. */
export const missingResources = [
  "route",
  "organisation",
  "user",
  "invite",
  "site",
  "system",
  "portfolio",
  "provider",
  "connection",
  "alert",
  "api_key",
  "sync_run",
] as const;

/** Why a 409: the state the request ran into. */
export const conflictReasons = [
  "email_taken",
  "already_member",
  "invite_pending",
  "invite_accepted",
  "last_owner",
  "already_in_organisation",
  "platform_admin",
  "portfolio_name_taken",
  "system_attached",
  "sync_running",
] as const;

/** Why a 403 other than the role table: the rule that refused it. */
export const forbiddenReasons = [
  "role",
  "api_key_scope",
  "api_key_endpoint",
  "assign_role",
  "act_on_self",
  "manage_user",
  "grant_permissions",
  "revoke_invite",
  "api_key_permissions",
  "revoke_api_key",
] as const;

/** A well-formed request the product does not do. */
export const invalidRequestReasons = [
  "owner_has_every_permission",
  "import_only_provider",
  "malformed_body",
] as const;

/** An outside service the API depends on (other than the monitoring vendors). */
export const upstreamServices = ["geocoder", "weather"] as const;

/** What a provider call failed on (the sync engine's classification). */
export const providerFailureKinds = [
  "auth",
  "rate_limited",
  "unavailable",
  "timeout",
  "malformed",
  "invalid_request",
  "unreadable_credentials",
  "unexpected",
] as const;

export type ProviderFailureKind = (typeof providerFailureKinds)[number];

const none = z.undefined();

/** The details each code carries; `z.undefined()` means the code carries none. */
export const apiErrorDetailsSchemas = {
  /** The input broke its schema: one issue per field. */
  validation_failed: z.array(validationIssueSchema),
  /** Required form fields were empty: their labels, and the text "Please fill in: …". */
  missing_fields: z.object({ missing: z.array(z.string()), message: z.string() }),
  /** An uploaded file could not be read: the columns it lacks or the rows that failed. */
  unreadable_file: z.object({
    missingColumns: z.array(z.string()).optional(),
    columns: z.array(z.string()).optional(),
    errors: z.array(z.object({ row: z.number(), error: z.string() })).optional(),
  }),
  invalid_request: z.object({ reason: z.enum(invalidRequestReasons) }),
  /** No session, or one that expired or was revoked. */
  unauthenticated: none,
  /** Wrong email or password at login (or current password on re-authentication). */
  invalid_login: none,
  forbidden: z.object({ reason: z.enum(forbiddenReasons) }),
  /** The account has no organisation yet. */
  onboarding_required: none,
  /** The account's address was never verified: creating API keys and inviting wait for it. */
  email_not_verified: none,
  not_found: z.object({
    resource: z.enum(missingResources),
    message: z.string().optional(),
    siteId: z.string().optional(),
    missingSiteIds: z.array(z.string()).optional(),
    systemId: z.string().optional(),
    systemIds: z.array(z.string()).optional(),
    provider: z.string().optional(),
    providerId: z.string().optional(),
  }),
  /** The geocoder knows no place for this address. */
  address_not_found: z.object({ address: z.string(), country: z.string().optional(), message: z.string() }),
  conflict: z.object({
    reason: z.enum(conflictReasons),
    field: z.string().optional(),
    name: z.string().optional(),
    siteId: z.string().optional(),
  }),
  payload_too_large: z.object({ maxBytes: z.number() }),
  /** /ws without a WebSocket upgrade. */
  upgrade_required: none,
  /** Too many calls; the same number is in the Retry-After header. */
  rate_limited: z.object({ retryAfterSeconds: z.number() }),
  /** A monitoring vendor refused or failed the call; `status` is the connection's status after it. */
  provider_failure: z.object({
    provider: providerIdSchema,
    kind: z.enum(providerFailureKinds),
    status: z.string().optional(),
  }),
  /** The geocoder or the weather service failed; `retryAfterSeconds` when it is only busy. */
  upstream_unavailable: z.object({
    service: z.enum(upstreamServices),
    reason: z.string().optional(),
    upstreamStatus: z.number().optional(),
    retryAfterSeconds: z.number().optional(),
  }),
  /** A required secret is missing or malformed on the server. */
  not_configured: none,
  internal_error: z.object({ requestId: z.string() }),
} as const;

export type ApiErrorCode = keyof typeof apiErrorDetailsSchemas;
export const apiErrorCodes = Object.keys(apiErrorDetailsSchemas) as ApiErrorCode[];
export const apiErrorCodeSchema = z.enum(apiErrorCodes as [ApiErrorCode, ...ApiErrorCode[]]);

export type ApiErrorDetails = {
  [Code in ApiErrorCode]: z.infer<(typeof apiErrorDetailsSchemas)[Code]>;
};

/** The HTTP status each code answers with (a provider failure caused by the user's input is a 400). */
export const apiErrorStatus = {
  validation_failed: 400,
  missing_fields: 400,
  unreadable_file: 400,
  invalid_request: 400,
  unauthenticated: 401,
  invalid_login: 401,
  forbidden: 403,
  onboarding_required: 403,
  email_not_verified: 403,
  not_found: 404,
  address_not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  upgrade_required: 426,
  rate_limited: 429,
  provider_failure: 502,
  upstream_unavailable: 502,
  not_configured: 503,
  internal_error: 500,
} as const satisfies Record<ApiErrorCode, number>;

const codeHasNoDetails = (code: ApiErrorCode) => apiErrorDetailsSchemas[code] === none;

/** The error body, loosely: what a client can rely on before it looks at the code. */
export const apiErrorBodySchema = z.object({
  error: z.string(),
  code: apiErrorCodeSchema,
  details: z.unknown().optional(),
});

/** The error body with `details` checked against its code's shape. */
export const typedApiErrorBodySchema = z.discriminatedUnion(
  "code",
  apiErrorCodes.map((code) =>
    z.strictObject({
      error: z.string(),
      code: z.literal(code),
      // Codes without details leave the key out; every other code always carries its details.
      details: codeHasNoDetails(code) ? z.undefined().optional() : apiErrorDetailsSchemas[code],
    }),
  ) as unknown as [z.ZodObject<{ code: z.ZodLiteral<ApiErrorCode> }>],
);

export type ApiErrorBody = {
  [Code in ApiErrorCode]: { error: string; code: Code } & (ApiErrorDetails[Code] extends undefined
    ? { details?: undefined }
    : { details: ApiErrorDetails[Code] });
}[ApiErrorCode];
