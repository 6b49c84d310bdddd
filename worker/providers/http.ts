import type { Env } from "../env";
import type { CallBudget } from "./budget";
import { PROVIDER_CALL_TIMEOUT_MS } from "./call-limits";
import { CallsStopped, ProviderError } from "./errors";

/**
 * What one sync unit's calls may take together: twice the minute a queue invocation works on a run.
 * Waits for the credential's budget do not count (30 SolaX dongles at 9 calls a minute are 3.5
 * minutes of planned spacing); calls, failed attempts and retry waits do, so a unit whose vendor
 * rate-limits or never answers fails within it, however many calls it makes.
 */
export const UNIT_CALLS_LIMIT_MS = 120_000;
/**
 * The longest one call waits for its slot in the credential's budget: one sync cadence. A slot
 * further off (the bucket booked that far ahead by the credential's other users) is not taken,
 * and the call fails rate_limited, so the run ends with its cause and the next cycle tries again,
 * instead of waiting without bound.
 */
export const BUDGET_WAIT_LIMIT_MS = 5 * 60_000;
/** A vendor answer larger than this is refused: no list page of ours comes near it. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export interface ProviderRequest {
  method?: "GET" | "POST" | "PATCH";
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Rate-limited and failing calls are retried inside the run, within these bounds. */
export interface RetryPolicy {
  /** Retries after the first call (0: none). */
  retries: number;
  /** The sum of all waits between attempts; a vendor asking for longer is not waited for. */
  maxTotalWaitMs: number;
  /** First backoff step when the vendor names no time; doubles per retry, with jitter. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, maxTotalWaitMs: 60_000, baseDelayMs: 1000 };

export interface ProviderJsonOptions {
  /** Statuses that mean rejected credentials (401 and 403 unless a vendor says otherwise). */
  authStatuses?: readonly number[];
  /**
   * The vendor's own envelope check: answers the error a 200 answer carries (SolisCloud's R0000
   * "too many request", SolaX's 10406), or null. A rate_limited one is retried like HTTP 429.
   */
  vendorError?: (body: unknown) => ProviderError | null;
  /** Retries of a retryable failure for this call (the policy's unless set; 0: fail at once). */
  retries?: number;
}

export interface ProviderHttpOptions {
  /** Defaults to the global fetch; tests and the benchmark hand in the sandbox. */
  fetch?: (request: Request) => Promise<Response>;
  /** The credential's call budget (shared by every invocation); none means unthrottled. */
  budget?: CallBudget;
  /** The longest one call waits for its budget slot (BUDGET_WAIT_LIMIT_MS unless shorter). */
  maxBudgetWaitMs?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** How budget waits and retry backoffs wait; a benchmark advances a virtual clock instead. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock budget slots are measured with; a benchmark drives a virtual one together with `sleep`. */
  now?: () => number;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  /**
   * Time every call of this transport shares (one sync unit's, UNIT_CALLS_LIMIT_MS), budget waits
   * not counted; none without it (a connection test, a cron job's lookups).
   */
  limitMs?: number;
  /** Stops the calls in flight and every later one with CallsStopped (an invocation handing its unit on). */
  signal?: AbortSignal;
}

/**
 * The per-call and per-unit limits, shortened only in the test suites (PROVIDER_CALL_TIMEOUT_MS,
 * SYNC_UNIT_LIMIT_MS) so their vendor faults do not wait on the real clock; nowhere else can they change.
 */
export function transportLimits(
  env: Pick<Env, "APP_ENV" | "PROVIDER_CALL_TIMEOUT_MS" | "SYNC_UNIT_LIMIT_MS">,
) {
  const shortened = (setting: string | undefined, productionMs: number) => {
    const ms = Number(setting);
    return env.APP_ENV === "test" && Number.isInteger(ms) && ms > 0 && ms < productionMs ? ms : productionMs;
  };
  return {
    callTimeoutMs: shortened(env.PROVIDER_CALL_TIMEOUT_MS, PROVIDER_CALL_TIMEOUT_MS),
    unitLimitMs: shortened(env.SYNC_UNIT_LIMIT_MS, UNIT_CALLS_LIMIT_MS),
  };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A ProviderError for a 5xx answer or a connection that failed before any answer: the only
 * "unavailable" that is retried inside the run (a redirect is not).
 */
class ServerError extends ProviderError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/** The credential's budget has no slot within the wait allowed: retrying would only wait longer. */
class BudgetSlotTooFar extends ProviderError {
  constructor(message: string, retryAfterMs: number) {
    super("rate_limited", message, retryAfterMs);
  }
}

const retryable = (error: unknown): error is ProviderError =>
  error instanceof ServerError ||
  (error instanceof ProviderError && error.kind === "rate_limited" && !(error instanceof BudgetSlotTooFar));

/** The body as text, refused once it passes `maxBytes` (whatever Content-Length claimed). */
async function readCapped(response: Response, maxBytes: number, host: string): Promise<string> {
  const tooLarge = () =>
    new ProviderError("malformed", `${host} sent an answer larger than ${maxBytes / 1024 / 1024} MB`);
  const declared = Number(response.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * The one way adapters reach a vendor: each call waits for a slot in the credential's budget,
 * is capped at 10 s and 5 MB, follows no redirect, and every failure becomes a ProviderError the
 * sync engine knows how to treat. Rate-limited calls and 5xx answers are retried a bounded number
 * of times; only a call that keeps failing fails. With `limitMs` (a sync unit) all calls share one
 * time limit, so N calls each retried cannot add up to N times the retry bounds.
 */
export class ProviderHttp {
  /** Calls sent, retries included. */
  calls = 0;
  /** Retries made (each also counted in `calls`). */
  retries = 0;
  private readonly fetcher: (request: Request) => Promise<Response>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly startedAt: number;
  /** Time spent waiting for budget slots, counted once however many calls waited side by side. */
  private budgetWaitMs = 0;
  private budgetWaitUntil = 0;
  /** The last retried failure: what the time went on when the limit runs out. */
  private lastFailure: ProviderError | null = null;

  constructor(private readonly options: ProviderHttpOptions = {}) {
    this.fetcher = options.fetch ?? ((request) => fetch(request));
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? (() => Date.now());
    this.random = options.random ?? Math.random;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.startedAt = this.now();
  }

  /** What is left of `limitMs` (infinite without one). */
  private remainingMs(): number {
    const limitMs = this.options.limitMs ?? Number.POSITIVE_INFINITY;
    return this.startedAt + limitMs + this.budgetWaitMs - this.now();
  }

  /** The failure once the shared time is used up: the cause the time went on, or no answer. */
  private outOfTime(host: string, inFlight: boolean): ProviderError {
    const limitS = (this.options.limitMs ?? 0) / 1000;
    const last = this.lastFailure;
    if (inFlight || !last) {
      return new ProviderError(
        "timeout",
        `${host} did not answer within the ${limitS} s a sync unit has for its calls`,
      );
    }
    return new ProviderError(
      last.kind,
      `${last.message}; the ${limitS} s a sync unit has for its calls ran out`,
      last.retryAfterMs,
      last.status,
    );
  }

  /** Sleeps `ms`, cut short by `signal` with CallsStopped. */
  private async wait(ms: number): Promise<void> {
    const signal = this.options.signal;
    if (!signal) return this.sleep(ms);
    if (signal.aborted) throw new CallsStopped();
    let onAbort = () => {};
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => reject(new CallsStopped());
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(ms), stopped]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Waits for the budget's slot for this endpoint (the URL's path), or fails when it is too far off. */
  private async slot(url: URL): Promise<void> {
    if (!this.options.budget) return;
    const askedAt = this.now();
    const maxWaitMs = Math.min(this.options.maxBudgetWaitMs ?? BUDGET_WAIT_LIMIT_MS, BUDGET_WAIT_LIMIT_MS);
    const waitMs = await this.options.budget.reserve(url.pathname, askedAt, maxWaitMs);
    if (waitMs > maxWaitMs) {
      throw new BudgetSlotTooFar(
        `${url.host}: this credential's calls are booked ${Math.ceil(waitMs / 1000)} s ahead by other calls with the same credential; a call waits at most ${Math.round(maxWaitMs / 1000)} s for its turn`,
        waitMs,
      );
    }
    const slotAt = askedAt + waitMs;
    this.budgetWaitMs += Math.max(0, slotAt - Math.max(askedAt, this.budgetWaitUntil));
    this.budgetWaitUntil = Math.max(this.budgetWaitUntil, slotAt);
    // The slot is a point in time: whatever passed during the request counts towards it.
    const remaining = slotAt - this.now();
    if (remaining > 0) await this.wait(remaining);
  }

  /**
   * One call, answer body included, within the time limit. The timer is cleared as soon as the
   * call ends (AbortSignal.timeout would keep one timer alive per call for the full limit).
   */
  private async exchange(request: ProviderRequest): Promise<{ response: Response; text: string }> {
    const url = new URL(request.url);
    const host = url.host;
    await this.slot(url);
    const signal = this.options.signal;
    if (signal?.aborted) throw new CallsStopped();
    const remainingMs = this.remainingMs();
    if (remainingMs <= 0) throw this.outOfTime(host, false);
    this.calls++;
    const timeoutMs = this.options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
    // The unit's own limit cuts a call that would outlast it.
    const cutByUnit = remainingMs < timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.min(timeoutMs, remainingMs),
    );
    const stop = () => controller.abort();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      const response = await this.fetcher(
        new Request(request.url, {
          method: request.method ?? "GET",
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
          // A vendor API never redirects; following one would send signed requests elsewhere.
          redirect: "manual",
        }),
      );
      return { response, text: await readCapped(response, MAX_ANSWER_BYTES, host) };
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (signal?.aborted && !timedOut) throw new CallsStopped();
      if (timedOut && cutByUnit) throw this.outOfTime(host, true);
      if (timedOut) throw new ProviderError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
        throw new ProviderError("timeout", `${host} did not answer within ${timeoutMs / 1000} s`);
      }
      throw new ServerError(`${host} could not be reached`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
  }

  /** One attempt: HTTP statuses classified here, the vendor's envelope by `vendorError`. */
  private async attempt(request: ProviderRequest, options: ProviderJsonOptions): Promise<unknown> {
    const { response, text } = await this.exchange(request);
    const host = new URL(request.url).host;
    if ((options.authStatuses ?? [401, 403]).includes(response.status)) {
      throw new ProviderError("auth", `${host} rejected the credentials (HTTP ${response.status})`);
    }
    if (response.status === 429) {
      throw new ProviderError(
        "rate_limited",
        `${host} is rate-limiting requests`,
        retryAfterMs(response.headers.get("Retry-After"), this.now()),
      );
    }
    if (response.status >= 500) throw new ServerError(`${host} answered HTTP ${response.status}`);
    if (response.status >= 300 && response.status < 400) {
      throw new ProviderError(
        "unavailable",
        `${host} answered with a redirect (HTTP ${response.status}); redirects are not followed`,
      );
    }
    if (response.status >= 400) {
      throw new ProviderError(
        "invalid_request",
        `${host} refused the request (HTTP ${response.status})`,
        undefined,
        response.status,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // A gateway's error or maintenance page says more than "not JSON" does.
      const what = /^\s*</.test(text) ? "an HTML page" : "something";
      throw new ProviderError("malformed", `${host} answered with ${what} that is not JSON`);
    }
    const vendorError = options.vendorError?.(body);
    if (vendorError) throw vendorError;
    return body;
  }

  /** The wait before retry number `retry` (1-based): exponential with full jitter in its upper half. */
  private backoffMs(retry: number): number {
    const step = this.retry.baseDelayMs * 2 ** (retry - 1);
    return Math.round(step / 2 + (step / 2) * this.random());
  }

  /**
   * Sends the request and parses a JSON answer. A rate-limited or 5xx answer is tried again after
   * the vendor's Retry-After (or a backoff), at most `retries` times and within `maxTotalWaitMs`
   * (and never past the unit's limit); rejected credentials and refused requests never are.
   */
  async json(request: ProviderRequest, options: ProviderJsonOptions = {}): Promise<unknown> {
    let waitedMs = 0;
    for (let retry = 1; ; retry++) {
      try {
        return await this.attempt(request, options);
      } catch (error) {
        if (!retryable(error)) throw error;
        this.lastFailure = error;
        if (retry > (options.retries ?? this.retry.retries)) throw error;
        const waitMs = error.retryAfterMs ?? this.backoffMs(retry);
        if (waitedMs + waitMs > this.retry.maxTotalWaitMs) throw error;
        // Waiting past the unit's limit would only end in its timeout: the vendor's answer is the cause.
        if (waitMs >= this.remainingMs()) {
          throw new ProviderError(
            error.kind,
            `${error.message}; gave up after ${retry} ${retry === 1 ? "try" : "tries"}, as the ${(this.options.limitMs ?? 0) / 1000} s a sync unit has for its calls would run out`,
            error.retryAfterMs,
            error.status,
          );
        }
        waitedMs += waitMs;
        this.retries++;
        await this.wait(waitMs);
      }
    }
  }
}
