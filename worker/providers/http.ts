import { ProviderError } from "./errors";

export const PROVIDER_CALL_TIMEOUT_MS = 10_000;

export interface ProviderRequest {
  method?: "GET" | "POST" | "PATCH";
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ProviderHttpOptions {
  /** Defaults to the global fetch; tests and the benchmark hand in the sandbox. */
  fetch?: (request: Request) => Promise<Response>;
  /** Spacing between calls for one connection: the vendor's documented rate limit. */
  minIntervalMs: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The one way adapters reach a vendor: spaced to the vendor's rate limit, each call capped at
 * 10 s, and every failure turned into a ProviderError the sync engine knows how to treat.
 */
export class ProviderHttp {
  private lastCallAt = 0;
  calls = 0;
  private readonly fetcher: (request: Request) => Promise<Response>;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ProviderHttpOptions) {
    this.fetcher = options.fetch ?? ((request) => fetch(request));
    this.sleep = options.sleep ?? defaultSleep;
  }

  async send(request: ProviderRequest): Promise<Response> {
    const wait = this.lastCallAt + this.options.minIntervalMs - Date.now();
    if (wait > 0) await this.sleep(wait);
    this.lastCallAt = Date.now();
    this.calls++;
    const timeoutMs = this.options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
    const host = new URL(request.url).host;
    try {
      return await this.fetcher(
        new Request(request.url, {
          method: request.method ?? "GET",
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(timeoutMs),
        }),
      );
    } catch (error) {
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new ProviderError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      }
      throw new ProviderError("unavailable", `${host} could not be reached`);
    }
  }

  /**
   * Sends the request and parses a JSON answer. HTTP statuses are classified here; adapters
   * then check the vendor's own envelope codes.
   */
  async json(request: ProviderRequest, authStatuses: readonly number[] = [401, 403]): Promise<unknown> {
    const response = await this.send(request);
    const host = new URL(request.url).host;
    const text = await response.text();
    if (authStatuses.includes(response.status)) {
      throw new ProviderError("auth", `${host} rejected the credentials (HTTP ${response.status})`);
    }
    if (response.status === 429) {
      throw new ProviderError(
        "rate_limited",
        `${host} is rate-limiting requests`,
        retryAfterMs(response.headers.get("Retry-After")),
      );
    }
    if (response.status >= 500) {
      throw new ProviderError("unavailable", `${host} answered HTTP ${response.status}`);
    }
    if (response.status >= 400) {
      throw new ProviderError("invalid_request", `${host} refused the request (HTTP ${response.status})`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError("malformed", `${host} answered with something that is not JSON`);
    }
  }
}
