import type { z } from "zod";
import type { CallLimit } from "../budget";
import { ProviderError } from "../errors";
import { vendorText } from "../redact";
import type { ProviderCallContext } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import type { SolaxOpenApiCredentials } from "./credentials";
import { oauthTokenResultSchema, openApiEnvelopeSchema, pageSchema } from "./schemas";

/** 100 calls a minute per application: 90 a minute, one every 667 ms. */
export const OPENAPI_LIMITS: CallLimit[] = [{ intervalMs: 667, burst: 1 }];

const TOKEN_PATH = "/openapi/auth/oauth/token";
const SUCCESS = 10000;
const TOKEN_SUCCESS = 0;
const AUTH_CODES = new Set([10400, 10401, 10402]);
const PERMISSION_CODES = new Set([10403, 10500, 10505, 10506]);
/** A token is renewed this long before SolaX says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** A guard against a vendor that keeps reporting more pages. */
const MAX_PAGES = 10_000;

/** Vendor codes other than success, as ProviderErrors. */
function codeError(code: number | null, message: string | null, what: string): ProviderError {
  const detail = `${vendorText(message) || "no reason given"} (code ${code ?? "missing"})`;
  if (code !== null && AUTH_CODES.has(code)) {
    return new ProviderError("auth", `SolaX OpenAPI rejected the client credentials: ${detail}`);
  }
  if (code !== null && PERMISSION_CODES.has(code)) {
    return new ProviderError("auth", `The SolaX application may not read ${what}: ${detail}`);
  }
  // No wait is named: the transport backs off and tries again.
  if (code === 10406) return new ProviderError("rate_limited", `SolaX OpenAPI rate limit: ${detail}`);
  if (code === 10405)
    return new ProviderError("rate_limited", `SolaX OpenAPI quota used up: ${detail}`, 3_600_000);
  if (code === 11500) return new ProviderError("unavailable", `SolaX OpenAPI is busy: ${detail}`);
  return new ProviderError("invalid_request", `SolaX OpenAPI refused the request for ${what}: ${detail}`);
}

/** SolaX's rate-limit and quota codes inside a 200 answer, for the transport to retry. */
function rateLimitError(body: unknown, what: string): ProviderError | null {
  const envelope = openApiEnvelopeSchema.safeParse(body);
  if (!envelope.success || (envelope.data.code !== 10406 && envelope.data.code !== 10405)) return null;
  return codeError(envelope.data.code, envelope.data.message, what);
}

/**
 * SolaX Developer OpenAPI calls: an OAuth2 client-credentials token, cached in the connection's
 * session until shortly before it expires, sent as "Authorization: bearer …"; a 10402 answer
 * (token no longer valid) fetches a new token once and repeats the call.
 */
export class SolaxOpenApiClient {
  constructor(
    private readonly ctx: ProviderCallContext,
    private readonly credentials: SolaxOpenApiCredentials,
  ) {}

  private cachedToken(): string | null {
    const session = this.ctx.session.get();
    const token = session?.solaxAccessToken;
    const expiresAt = session?.solaxAccessTokenExpiresAt;
    if (typeof token !== "string" || typeof expiresAt !== "number") return null;
    return expiresAt - TOKEN_MARGIN_MS > this.ctx.now() ? token : null;
  }

  async token(): Promise<string> {
    const cached = this.cachedToken();
    if (cached) return cached;
    const body = await this.ctx.http.json(
      {
        method: "POST",
        url: `${this.ctx.urls.solaxOpenApi}${TOKEN_PATH}`,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: this.credentials.clientId,
          client_secret: this.credentials.clientSecret,
          grant_type: "client_credentials",
        }).toString(),
      },
      { vendorError: (answer) => rateLimitError(answer, "a token") },
    );
    const envelope = parseVendorAnswer(openApiEnvelopeSchema, body, "SolaX", "the token request");
    if (envelope.code !== TOKEN_SUCCESS) throw codeError(envelope.code, envelope.message, "a token");
    const result = parseVendorAnswer(oauthTokenResultSchema, envelope.result, "SolaX", "the token request");
    // Without a lifetime, assume an hour; SolaX's are usually days.
    const expiresInS = result.expires_in ?? 3600;
    this.ctx.session.set({
      ...(this.ctx.session.get() ?? {}),
      solaxAccessToken: result.access_token,
      solaxAccessTokenExpiresAt: this.ctx.now() + expiresInS * 1000,
    });
    return result.access_token;
  }

  private forgetToken() {
    const {
      solaxAccessToken: _token,
      solaxAccessTokenExpiresAt: _expiry,
      ...rest
    } = this.ctx.session.get() ?? {};
    this.ctx.session.set(rest);
  }

  /** A GET whose answer's `result` is parsed with `schema`. */
  async get<T>(path: string, query: Record<string, string>, schema: z.ZodType<T>, what: string): Promise<T> {
    const url = `${this.ctx.urls.solaxOpenApi}${path}?${new URLSearchParams(query)}`;
    for (let attempt = 0; ; attempt++) {
      const token = await this.token();
      const body = await this.ctx.http.json(
        { url, headers: { Authorization: `bearer ${token}` } },
        { vendorError: (answer) => rateLimitError(answer, what) },
      );
      const envelope = parseVendorAnswer(openApiEnvelopeSchema, body, "SolaX", what);
      if (envelope.code === SUCCESS) return parseVendorAnswer(schema, envelope.result, "SolaX", what);
      if (envelope.code === 10402 && attempt === 0) {
        this.forgetToken();
        continue;
      }
      throw codeError(envelope.code, envelope.message, what);
    }
  }

  /** Every record of a paged call (pageNo from 1 to result.pages). */
  async records<T>(
    path: string,
    query: Record<string, string>,
    record: z.ZodType<T>,
    what: string,
  ): Promise<T[]> {
    const all: T[] = [];
    const schema = pageSchema(record);
    for (let pageNo = 1; pageNo <= MAX_PAGES; pageNo++) {
      const page = await this.get(path, { ...query, pageNo: String(pageNo) }, schema, what);
      all.push(...page.records);
      if (page.records.length === 0 || pageNo >= (page.pages ?? 1)) break;
    }
    return all;
  }

  /** The first page only, for its totals. */
  async firstPage<T>(path: string, query: Record<string, string>, record: z.ZodType<T>, what: string) {
    return this.get(path, { ...query, pageNo: "1" }, pageSchema(record), what);
  }
}
