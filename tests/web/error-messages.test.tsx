import { screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ApiErrorBody, apiErrorCodes } from "../../schema/api/errors";
import { ApiRequestError } from "../../web/lib/api";
import { apiErrorMessage, errorDescription } from "../../web/lib/error-messages";
import { i18n, loadStringSet } from "../../web/lib/i18n";
import { apiErrorsEs } from "../../web/lib/i18n/api-errors/es";
import { publicEs } from "../../web/lib/i18n/public/es";
import { mockApi, renderApp } from "./helpers";

/** One body per code, as the API answers it. */
const examples: Record<ApiErrorBody["code"], ApiErrorBody> = {
  validation_failed: {
    error: "Invalid input",
    code: "validation_failed",
    details: [{ path: ["email"], message: "Enter a valid email address" }],
  },
  missing_fields: {
    error: "Missing required fields",
    code: "missing_fields",
    details: { missing: ["API Key ID"], message: "Please fill in: API Key ID" },
  },
  unreadable_file: {
    error: "No row of the file could be read",
    code: "unreadable_file",
    details: { errors: [{ row: 2, error: "bad date" }] },
  },
  invalid_request: {
    error: "Meteronline data arrives by CSV import, not by sync",
    code: "invalid_request",
    details: { reason: "import_only_provider" },
  },
  unauthenticated: { error: "Not authenticated", code: "unauthenticated" },
  invalid_login: { error: "Invalid credentials", code: "invalid_login" },
  forbidden: {
    error: "You do not have permission to do this",
    code: "forbidden",
    details: { reason: "role" },
  },
  onboarding_required: { error: "Complete your organisation setup first", code: "onboarding_required" },
  email_not_verified: { error: "Confirm your e-mail address first", code: "email_not_verified" },
  not_found: { error: "Site not found", code: "not_found", details: { resource: "site" } },
  address_not_found: {
    error: "Address not found",
    code: "address_not_found",
    details: { address: "Nowhere 1", message: "No place matches this address." },
  },
  conflict: {
    error: "An account with this email already exists",
    code: "conflict",
    details: { reason: "email_taken" },
  },
  payload_too_large: {
    error: "Request body is too large",
    code: "payload_too_large",
    details: { maxBytes: 65536 },
  },
  upgrade_required: { error: "Expected a WebSocket upgrade", code: "upgrade_required" },
  rate_limited: { error: "Too many attempts", code: "rate_limited", details: { retryAfterSeconds: 60 } },
  provider_failure: {
    error: "SolisCloud: the KeyId or KeySecret is wrong",
    code: "provider_failure",
    details: { provider: "solis", kind: "auth" },
  },
  upstream_unavailable: {
    error: "The address lookup service could not be reached",
    code: "upstream_unavailable",
    details: { service: "geocoder", reason: "unreachable" },
  },
  not_configured: { error: "Server is not configured", code: "not_configured" },
  internal_error: { error: "Internal server error", code: "internal_error", details: { requestId: "req-1" } },
};

const asError = (body: ApiErrorBody, status = 400) =>
  new ApiRequestError(
    `${status}: ${JSON.stringify(body)}`,
    status,
    "/api/x",
    body.error,
    body.details,
    undefined,
    body.code,
  );

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("API error messages", () => {
  // Errors made here rather than by the API client, which loads the messages with a failure.
  beforeAll(() => loadStringSet("apiErrors"));

  it.each([["en"], ["es"], ["fr"]])(
    "%s has a message for every error code, never the server's English",
    async (language) => {
      await i18n.changeLanguage(language);
      expect(Object.keys(examples).sort()).toEqual([...apiErrorCodes].sort());
      for (const body of Object.values(examples)) {
        const message = errorDescription(asError(body), "fallback");
        expect(message, body.code).not.toBe("fallback");
        expect(message, body.code).not.toMatch(/apiErrors\./);
        if (language !== "en")
          expect(message, body.code).not.toBe(apiErrorMessage(i18n.getFixedT("en"), body));
        expect(message, body.code).not.toBe(body.error);
      }
    },
  );

  it("falls back to the caller's text for an answer without a code (a proxy's page)", () => {
    const error = new ApiRequestError("502: <html>", 502, "/api/x");
    expect(errorDescription(error, "Could not load")).toBe("Could not load");
  });

  it("shows a Spanish user a Spanish message for a code", async () => {
    mockApi({
      "POST /api/auth/register": {
        status: 409,
        body: examples.conflict,
      },
    });
    await i18n.changeLanguage("es");
    const { user } = renderApp("/signup");
    await user.type(await screen.findByLabelText(publicEs.auth.email), "olivia@sunco.example");
    await user.type(screen.getByLabelText(publicEs.auth.password), "long-enough-password");
    await user.type(screen.getByLabelText(publicEs.auth.fullName), "Olivia Owner");
    await user.type(screen.getByLabelText(publicEs.auth.companyName), "Sunco");
    await user.click(screen.getByRole("button", { name: publicEs.auth.signUp }));
    const toast = (await screen.findByText(apiErrorsEs.apiErrors.conflict.email_taken)).closest("li");
    expect(toast).not.toBeNull();
    expect(within(toast as HTMLElement).queryByText(examples.conflict.error)).toBeNull();
  });
});
