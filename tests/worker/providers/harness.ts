import { expect } from "vitest";
import { createSandbox } from "../../../sandbox/app";
import { ProviderError } from "../../../worker/providers/errors";
import { ProviderHttp } from "../../../worker/providers/http";
import type { ProviderCallContext, ProviderSession } from "../../../worker/providers/types";
import { sandboxUrls } from "../../../worker/providers/urls";
import { memorySession } from "../../../worker/sync/source";

/**
 * What every adapter test needs to call an adapter: a call context on a clock the test holds,
 * the sandbox (or fixed vendor answers) as the vendor, and the failure it expects.
 */

export const SANDBOX_ORIGIN = "http://sandbox.test";

export type Fetch = (request: Request) => Promise<Response>;
type App = { fetch: (request: Request) => Response | Promise<Response> };

/** Retry backoffs pass at once: the tests never wait in real time. */
export const noWait = async (_ms: number) => {};

/** A session kept in memory, as a sync run keeps the stored one while it works. */
export const testSession = (initial: Record<string, unknown> | null = null): ProviderSession =>
  memorySession(initial).session;

/** A clock both the sandbox and the adapter read, moved by the test. */
export function movableClock(start: number) {
  const clock = { at: start, now: () => clock.at };
  return clock;
}

export interface SandboxFetchOptions {
  /** Sent as X-Sandbox-Fault: the emulator answers with that fault. */
  fault?: string;
  /** Which requests get the fault; all of them when absent. */
  faultWhen?: (url: URL) => boolean;
  /** Every request, copied as sent. */
  seen?: Request[];
}

/** The sandbox app as the vendor: like the real fetch, a call rejects when its signal aborts. */
export function sandboxFetch(app: App, options: SandboxFetchOptions = {}): Fetch {
  return (request) => {
    options.seen?.push(request.clone());
    const headers = new Headers(request.headers);
    if (options.fault && (options.faultWhen?.(new URL(request.url)) ?? true)) {
      headers.set("X-Sandbox-Fault", options.fault);
    }
    const forwarded = new Request(request, { headers });
    // The sandbox itself keeps going after an abort; only the caller gives up.
    return new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
      Promise.resolve(app.fetch(forwarded)).then(resolve, reject);
    });
  };
}

/**
 * Fixed vendor answers: `answerFor` picks one per request (a Response as it is, anything else as
 * JSON), `notFound` answers when it has none.
 */
export function answersFetch(
  answerFor: (request: Request) => unknown,
  notFound: () => Response,
  seen: Request[] = [],
): Fetch {
  return async (request) => {
    seen.push(request.clone());
    const answer = answerFor(request);
    if (answer === undefined) return notFound();
    return answer instanceof Response ? answer : Response.json(answer);
  };
}

/**
 * An adapter's call context: the sandbox's URLs, a fresh session and the transport given, or one
 * on `vendor` that never waits in real time.
 */
export function callContext(
  vendor: Fetch | ProviderHttp,
  now: () => number,
  overrides: Partial<ProviderCallContext> = {},
  timeoutMs?: number,
): ProviderCallContext {
  return {
    http:
      vendor instanceof ProviderHttp ? vendor : new ProviderHttp({ fetch: vendor, timeoutMs, sleep: noWait }),
    urls: sandboxUrls(SANDBOX_ORIGIN),
    now,
    session: testSession(),
    ...overrides,
  };
}

/** The contexts of a test file whose vendor and adapter are held at `fixedNow`. */
export function fixedTimeHarness(fixedNow: number) {
  const now = () => fixedNow;
  const context = (
    vendor: Fetch | ProviderHttp,
    overrides: Partial<ProviderCallContext> = {},
    timeoutMs?: number,
  ) => callContext(vendor, now, overrides, timeoutMs);
  /** A fresh sandbox at `fixedNow`, each request with `fault` when one is named. */
  const sandboxContext = (fault?: string, timeoutMs?: number, seen?: Request[]) =>
    context(sandboxFetch(createSandbox({ now }), { fault, seen }), {}, timeoutMs);
  return { context, sandboxContext };
}

/** The ProviderError `promise` fails with; anything else (success included) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
