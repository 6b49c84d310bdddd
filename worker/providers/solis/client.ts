import type { z } from "zod";
import { ProviderError } from "../errors";
import type { ProviderJsonOptions } from "../http";
import { vendorUrlProblem } from "../outbound";
import { vendorText } from "../redact";
import type { ProviderCallContext, ProviderUrls } from "../types";
import { parseVendorAnswer, parseVendorRecords } from "../vendor-parse";
import type { SolisCredentials } from "./credentials";
import { SOLIS_MAX_PAGES, SOLIS_PAGE_SIZE } from "./paging";
import { envelopeSchema, pageSchema } from "./schemas";
import { solisSignedHeaders } from "./signature";

const WINDOW_MS: Record<string, number> = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 };

/** "No authority too many request 200 times in 1DAYS": retry once the named window has passed. */
function rateLimitWindowMs(message: string): number {
  const match = /in\s*(\d+)\s*(SECOND|MINUTE|HOUR|DAY)S?/i.exec(message);
  const unit = WINDOW_MS[match?.[2]?.toUpperCase() ?? "SECOND"] ?? 1000;
  return Number(match?.[1] ?? 1) * unit;
}

/** SolisCloud's production hosts: the documented www host and the v3 and api hosts clients use. */
export const SOLIS_HOSTS = { name: "SolisCloud", hosts: ["*.soliscloud.com"], ports: ["13333"] } as const;

/** Null when the credentials' API URL may be called, otherwise why not. */
export function solisUrlProblem(credentials: SolisCredentials, urls: ProviderUrls): string | null {
  return credentials.apiUrl ? vendorUrlProblem(credentials.apiUrl, SOLIS_HOSTS, urls.solis) : null;
}

/** The vendor's result codes (API doc V2 appendix 1, plus codes seen in the wild). */
function vendorError(endpoint: string, code: string, message: string | null): ProviderError {
  const detail = `${vendorText(message) || "no message"} (code ${code})`;
  if (code === "R0000" && message && /too many request/i.test(message)) {
    return new ProviderError(
      "rate_limited",
      `SolisCloud's call limit was reached: ${detail}`,
      rateLimitWindowMs(message),
    );
  }
  if (code === "R0000" || code === "I0012" || code === "B0011") {
    return new ProviderError(
      "auth",
      `SolisCloud refused the API key: ${detail}. Check the KeyId, KeySecret and API URL on SolisCloud's API management page.`,
    );
  }
  if (code === "1") {
    // "数据异常 请联系管理员": an account problem only Solis support (re-activating API access) fixes.
    return new ProviderError(
      "auth",
      `SolisCloud reports a problem with this account: ${detail}. Ask Solis support to re-activate API access.`,
    );
  }
  if (/^[IB]\d/.test(code)) {
    return new ProviderError("invalid_request", `SolisCloud refused the ${endpoint} request: ${detail}`);
  }
  return new ProviderError("unavailable", `SolisCloud could not answer ${endpoint}: ${detail}`);
}

/** The error a SolisCloud answer carries, or null for code "0". */
function envelopeError(endpoint: string, answer: unknown): ProviderError | null {
  const envelope = envelopeSchema.safeParse(answer);
  if (!envelope.success) {
    return new ProviderError("malformed", `SolisCloud's ${endpoint} answer has no result code`);
  }
  return envelope.data.code === "0" ? null : vendorError(endpoint, envelope.data.code, envelope.data.msg);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export interface SolisPage<T> {
  records: T[];
  total: number | null;
  pages: number | null;
}

/** Signed calls to one SolisCloud account: envelope codes checked, lists paged through. */
export class SolisClient {
  private readonly baseUrl: string;

  constructor(
    private readonly ctx: ProviderCallContext,
    private readonly credentials: SolisCredentials,
  ) {
    // A stored API URL that is not SolisCloud's is refused before anything is sent to it.
    const problem = solisUrlProblem(credentials, ctx.urls);
    if (problem) throw new ProviderError("invalid_request", problem);
    this.baseUrl = (credentials.apiUrl ?? ctx.urls.solis).replace(/\/+$/, "");
  }

  /** POSTs `body` to /v1/api/<endpoint> and answers the envelope's `data`. */
  async call(
    endpoint: string,
    body: Record<string, unknown>,
    options: Pick<ProviderJsonOptions, "retries"> = {},
  ): Promise<unknown> {
    const path = `/v1/api/${endpoint}`;
    const text = JSON.stringify(body);
    const headers = await solisSignedHeaders({
      keyId: this.credentials.keyId,
      keySecret: this.credentials.keySecret,
      body: text,
      date: new Date(this.ctx.now()).toUTCString(),
      // The base URL may carry a path prefix; the vendor signs only its own path.
      path,
    });
    let answer: unknown;
    try {
      answer = await this.ctx.http.json(
        { method: "POST", url: `${this.baseUrl}${path}`, headers, body: text },
        // R0000 "too many request" arrives inside a 200 answer: the transport retries it.
        { ...options, vendorError: (body) => envelopeError(endpoint, body) },
      );
    } catch (error) {
      // SolisCloud answers 408 when the Date header is more than 15 minutes off its clock.
      if (
        error instanceof ProviderError &&
        error.kind === "invalid_request" &&
        /\(HTTP 408\)$/.test(error.message)
      ) {
        throw new ProviderError(
          "unavailable",
          "SolisCloud rejected the request time (HTTP 408): the Date header must be within 15 minutes of SolisCloud's clock.",
        );
      }
      throw error;
    }
    const envelope = envelopeSchema.safeParse(answer);
    return envelope.success ? envelope.data.data : undefined;
  }

  /** One page of a list, records checked against `schema`. */
  async page<T>(
    endpoint: string,
    body: Record<string, unknown>,
    schema: z.ZodType<T>,
    options: Pick<ProviderJsonOptions, "retries"> = {},
  ): Promise<SolisPage<T>> {
    const data = await this.call(endpoint, body, options);
    const container = isObject(data) && isObject(data.page) ? data.page : data;
    const page = parseVendorAnswer(pageSchema, container, "SolisCloud", `the page of ${endpoint}`);
    const records = await parseVendorRecords(schema, page.records, "SolisCloud", endpoint);
    return { records, total: page.total, pages: page.pages };
  }

  /**
   * Every record of a paged list, 100 per call; an answer short of its own total is refused.
   * Once the first page names the page count, the others are asked for together: the call budget
   * spaces them to the vendor's limit, and no page waits for the one before to come back.
   */
  async all<T>(endpoint: string, body: Record<string, unknown>, schema: z.ZodType<T>): Promise<T[]> {
    const pageOf = (pageNo: number) =>
      this.page(endpoint, { ...body, pageNo, pageSize: SOLIS_PAGE_SIZE }, schema);
    const first = await pageOf(1);
    const records: T[] = [...first.records];
    if (first.pages !== null && first.pages > 1 && first.records.length > 0) {
      if (first.pages > SOLIS_MAX_PAGES) {
        throw new ProviderError(
          "malformed",
          `SolisCloud's ${endpoint} claims more than ${SOLIS_MAX_PAGES} pages`,
        );
      }
      const rest = await Promise.all(
        Array.from({ length: first.pages - 1 }, (_, index) => pageOf(index + 2)),
      );
      for (const page of rest) records.push(...page.records);
      return complete(endpoint, records, first.total);
    }
    // Without a page count (searchCount off) a full page is the only sign that more follow.
    let page = first;
    for (let pageNo = 2; first.pages === null || first.pages <= 0; pageNo++) {
      if (page.records.length < SOLIS_PAGE_SIZE) break;
      if (pageNo > SOLIS_MAX_PAGES) {
        throw new ProviderError(
          "malformed",
          `SolisCloud's ${endpoint} claims more than ${SOLIS_MAX_PAGES} pages`,
        );
      }
      page = await pageOf(pageNo);
      records.push(...page.records);
    }
    return complete(endpoint, records, first.total);
  }
}

/**
 * Checks one page against the list's own counts: every page but the last holds a full page, the
 * last the remainder of `total`.
 */
export function checkPage<T>(endpoint: string, pageNo: number, page: SolisPage<T>): void {
  if (page.total === null || page.pages === null || page.pages <= 0) return;
  if (page.pages > SOLIS_MAX_PAGES) {
    throw new ProviderError(
      "malformed",
      `SolisCloud's ${endpoint} claims more than ${SOLIS_MAX_PAGES} pages`,
    );
  }
  const expected = pageNo < page.pages ? SOLIS_PAGE_SIZE : page.total - SOLIS_PAGE_SIZE * (page.pages - 1);
  if (page.records.length < expected) {
    throw new ProviderError(
      "malformed",
      `SolisCloud's ${endpoint} page ${pageNo} answered ${page.records.length} of the ${expected} records it announced`,
    );
  }
}

/** The page after `pageNo`, or null when `page` was the last (a full page without a count means more). */
export function nextPageNo(pageNo: number, page: SolisPage<unknown>): number | null {
  if (page.records.length === 0 || pageNo >= SOLIS_MAX_PAGES) return null;
  if (page.pages !== null && page.pages > 0) return pageNo < page.pages ? pageNo + 1 : null;
  return page.records.length < SOLIS_PAGE_SIZE ? null : pageNo + 1;
}

function complete<T>(endpoint: string, records: T[], total: number | null): T[] {
  if (total !== null && records.length < total) {
    throw new ProviderError(
      "malformed",
      `SolisCloud's ${endpoint} answered ${records.length} of the ${total} records it announced`,
    );
  }
  return records;
}
