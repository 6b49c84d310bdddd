import type { TFunction } from "i18next";
import { type ApiErrorBody, typedApiErrorBodySchema } from "../../schema/api/errors";
import { ApiRequestError } from "./api";
import { i18n } from "./i18n";
import { providerNames } from "./providers";

/** The API's error body with its code's details checked, or null for anything else. */
export function apiErrorBody(error: unknown): ApiErrorBody | null {
  if (!(error instanceof ApiRequestError) || error.code === undefined) return null;
  const parsed = typedApiErrorBodySchema.safeParse({
    error: error.serverError ?? "",
    code: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
  return parsed.success ? (parsed.data as ApiErrorBody) : null;
}

const kilobytes = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString(i18n.language)} KB`;

/** The message for an error code in the user's language; never the server's English `error`. */
export function apiErrorMessage(t: TFunction, body: ApiErrorBody): string {
  switch (body.code) {
    case "validation_failed": {
      const fields = [...new Set(body.details.map((issue) => issue.path.join(".")).filter(Boolean))];
      return fields.length > 0
        ? t("apiErrors.validation_failed", { fields: fields.join(", ") })
        : t("apiErrors.validation_failedNoField");
    }
    case "missing_fields":
      return t("apiErrors.missing_fields", { fields: body.details.missing.join(", ") });
    case "unreadable_file":
      return body.details.missingColumns?.length
        ? t("apiErrors.unreadable_fileColumns", {
            columns: body.details.missingColumns.map((c) => `"${c}"`).join(", "),
          })
        : t("apiErrors.unreadable_file");
    case "invalid_request":
      return t(`apiErrors.invalid_request.${body.details.reason}`);
    case "forbidden":
      return t(`apiErrors.forbidden.${body.details.reason}`);
    case "not_found":
      return t(`apiErrors.not_found.${body.details.resource}`);
    case "conflict":
      return t(`apiErrors.conflict.${body.details.reason}`);
    case "provider_failure":
      return t(`apiErrors.provider_failure.${body.details.kind}`, {
        provider: providerNames[body.details.provider],
      });
    case "upstream_unavailable":
      return t(`apiErrors.upstream_unavailable.${body.details.service}`);
    case "payload_too_large":
      return t("apiErrors.payload_too_large", { size: kilobytes(body.details.maxBytes) });
    case "rate_limited":
      return t("apiErrors.rate_limited", { seconds: body.details.retryAfterSeconds });
    case "internal_error":
      return t("apiErrors.internal_error", { requestId: body.details.requestId });
    case "unauthenticated":
    case "invalid_login":
    case "onboarding_required":
    case "email_not_verified":
    case "address_not_found":
    case "upgrade_required":
    case "not_configured":
      return t(`apiErrors.${body.code}`);
  }
}

/** Text for a toast or callout: the API error's code in the user's language, else the fallback. */
export function errorDescription(error: unknown, fallback: string): string {
  const body = apiErrorBody(error);
  return body ? apiErrorMessage(i18n.t, body) : fallback;
}

/** Labels of the fields the server found empty, when that is why it refused. */
export function missingFieldLabels(error: unknown): string[] | null {
  const body = apiErrorBody(error);
  return body?.code === "missing_fields" ? body.details.missing : null;
}
