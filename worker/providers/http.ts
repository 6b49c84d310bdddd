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
  /** The clock the spacing is measured with; a benchmark drives a virtual one together with `sleep`. */
  now?: () => number;
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
  private readonly now: () => number;

  constructor(private readonly options: ProviderHttpOptions) {
    this.fetcher = options.fetch ?? ((request) => fetch(request));
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => Date.now());
  }

  /**
   * One call, answer body included, within the time limit. The timer is cleared as soon as the
   * call ends (AbortSignal.timeout would keep one timer alive per call for the full limit).
   */
  private async exchange(request: ProviderRequest): Promise<{ response: Response; text: string }> {
    const wait = this.lastCallAt + this.options.minIntervalMs - this.now();
    if (wait > 0) await this.sleep(wait);
    this.lastCallAt = this.now();
    this.calls++;
    const timeoutMs = this.options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
    const host = new URL(request.url).host;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await this.fetcher(
        new Request(request.url, {
          method: request.method ?? "GET",
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
        }),
      );
      return { response, text: await response.text() };
    } catch (error) {
      if (timedOut) throw new ProviderError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new ProviderError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      }
      throw new ProviderError("unavailable", `${host} could not be reached`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends the request and parses a JSON answer. HTTP statuses are classified here; adapters
   * then check the vendor's own envelope codes.
   */
  async json(request: ProviderRequest, authStatuses: readonly number[] = [401, 403]): Promise<unknown> {
    const { response, text } = await this.exchange(request);
    const host = new URL(request.url).host;
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
