import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  type ApiErrorBody,
  type ApiErrorCode,
  type ApiErrorDetails,
  apiErrorStatus,
  type conflictReasons,
  type forbiddenReasons,
  type invalidRequestReasons,
  type missingResources,
  type ValidationIssue,
} from "../../schema/api/errors";

/** What one code needs: its details when it has any, never details of another code. */
export type ApiErrorInit<Code extends ApiErrorCode = ApiErrorCode> = {
  [C in Code]: {
    code: C;
    message: string;
    status?: ContentfulStatusCode;
  } & (ApiErrorDetails[C] extends undefined ? { details?: undefined } : { details: ApiErrorDetails[C] });
}[Code];

/**
 * The one error type routes and services throw; the app's one error handler answers `body`
 * with `status`. Its body type is the API's error union, so no other shape can leave the server.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ApiErrorCode;
  readonly body: ApiErrorBody;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = "ApiError";
    this.code = init.code;
    this.status = init.status ?? apiErrorStatus[init.code];
    this.body = (
      init.details === undefined
        ? { error: init.message, code: init.code }
        : { error: init.message, code: init.code, details: init.details }
    ) as ApiErrorBody;
  }

  /** Seconds to wait before trying again, for the Retry-After header. */
  get retryAfterSeconds(): number | undefined {
    const details: unknown = this.body.details;
    return details && typeof details === "object" && "retryAfterSeconds" in details
      ? Number(details.retryAfterSeconds)
      : undefined;
  }
}

/** zod paths may hold symbols; JSON holds strings and numbers. */
type IssueInput = Omit<ValidationIssue, "path"> & { path: PropertyKey[] };
export const invalidInput = (message: string, issues: IssueInput[]) =>
  new ApiError({
    code: "validation_failed",
    message,
    details: issues.map((issue) => ({
      ...issue,
      path: issue.path.map((key) => (typeof key === "symbol" ? String(key) : key)),
    })),
  });
/** A one-field validation failure: the field's path and the message, also as `error`. */
export const invalidField = (field: string, message: string) =>
  invalidInput(message, [{ path: [field], message }]);
export const invalidRequest = (reason: (typeof invalidRequestReasons)[number], message: string) =>
  new ApiError({ code: "invalid_request", message, details: { reason } });
export const notAuthenticated = () => new ApiError({ code: "unauthenticated", message: "Not authenticated" });
export const forbidden = (
  reason: (typeof forbiddenReasons)[number] = "role",
  message = "You do not have permission to do this",
) => new ApiError({ code: "forbidden", message, details: { reason } });
export const notFound = (
  resource: (typeof missingResources)[number],
  what: string,
  extra: Omit<ApiErrorDetails["not_found"], "resource"> = {},
) => new ApiError({ code: "not_found", message: `${what} not found`, details: { resource, ...extra } });
export const conflict = (
  reason: (typeof conflictReasons)[number],
  message: string,
  extra: Omit<ApiErrorDetails["conflict"], "reason"> = {},
) => new ApiError({ code: "conflict", message, details: { reason, ...extra } });
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError({ code: "rate_limited", message, details: { retryAfterSeconds } });
export const notConfigured = (message: string) => new ApiError({ code: "not_configured", message });
