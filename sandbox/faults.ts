import type { Context, MiddlewareHandler } from "hono";
import {
  type ProviderRegistration,
  providerRegistrations,
  type RegisteredFaultVendor,
} from "../schema/provider-registry";
import { hash } from "./hash";

/**
 * The emulators whose calls can be faulted on demand: each API provider's, or each fault group its
 * registration's URLs name.
 */
export type FaultVendor = RegisteredFaultVendor;

/** Every fault group of the registered providers, in registration order. */
export const faultVendors = [
  ...new Set(
    providerRegistrations.flatMap((p: ProviderRegistration) => p.urls.map((url) => url.faults ?? p.id)),
  ),
] as FaultVendor[];

/**
 * A fault that holds for every call of a vendor until cleared, answered as that vendor would:
 * - `hang`: no answer at all; the emulator waits until the caller gives up (aborts) or forever.
 * - `refuse_credentials`: the vendor's own answer to rejected credentials (status and body).
 * - `partial`: answers cut short: half a page whose totals still count it, records without fields.
 * - `unreadable`: a 200 answer that is not JSON: the vendor's body cut off mid-way, or (`html`)
 *   the HTML error page a gateway in front of the vendor sends.
 */
export type StandingFault = "hang" | "refuse_credentials" | "partial" | "unreadable" | "unreadable_html";

/**
 * Faults shared by the emulators of one sandbox. Rate limits: "refuse the next K calls" and
 * "refuse N % of calls", each answered with the vendor's own rate-limit error; the share is
 * deterministic (a hash of the call's number), so a run can be repeated exactly. Standing faults
 * (hang, refused credentials, partial or unreadable answers) hold until `clear`. Every call that
 * reaches an emulator is counted in `calls`, faulted or not.
 */
export class SandboxFaults {
  private readonly next = new Map<FaultVendor, number>();
  private readonly percent = new Map<FaultVendor, number>();
  private readonly seen = new Map<FaultVendor, number>();
  private readonly standing = new Map<FaultVendor, StandingFault>();
  /** Calls answered with a rate-limit error, per vendor. */
  readonly refused = new Map<FaultVendor, number>();
  /** Calls that reached the vendor's emulator, per vendor (SMA's token and data hosts together). */
  readonly calls = new Map<FaultVendor, number>();

  /** The vendor's next `calls` calls are refused. */
  rateLimitNext(vendor: FaultVendor, calls: number): this {
    this.next.set(vendor, calls);
    return this;
  }

  /** `percent` % of the vendor's calls (spread evenly, reproducibly) are refused. */
  rateLimitShare(vendor: FaultVendor, percent: number): this {
    this.percent.set(vendor, percent);
    return this;
  }

  /** Every call of the vendor gets `fault` until cleared. */
  inject(vendor: FaultVendor, fault: StandingFault): this {
    this.standing.set(vendor, fault);
    return this;
  }

  /** The vendor never answers (until the caller aborts). */
  hang(vendor: FaultVendor): this {
    return this.inject(vendor, "hang");
  }

  /** The vendor rejects the credentials, with its own error. */
  refuseCredentials(vendor: FaultVendor): this {
    return this.inject(vendor, "refuse_credentials");
  }

  /** The vendor's answers are cut short (half a page, fields missing). */
  partial(vendor: FaultVendor): this {
    return this.inject(vendor, "partial");
  }

  /** The vendor's answers are not JSON: cut off mid-body, or a gateway's HTML error page. */
  unreadable(vendor: FaultVendor, form: "cut" | "html" = "cut"): this {
    return this.inject(vendor, form === "html" ? "unreadable_html" : "unreadable");
  }

  /** Ends the faults of one vendor, or of all. */
  clear(vendor?: FaultVendor): void {
    for (const map of [this.next, this.percent, this.standing]) {
      if (vendor) map.delete(vendor);
      else map.clear();
    }
  }

  /** The standing fault of `vendor`, if any. */
  standingFault(vendor: FaultVendor): StandingFault | undefined {
    return this.standing.get(vendor);
  }

  /** Counts a call that reached the vendor's emulator. */
  count(vendor: FaultVendor): void {
    this.calls.set(vendor, (this.calls.get(vendor) ?? 0) + 1);
  }

  /** Whether this call of `vendor` is to be refused; counts it either way. */
  take(vendor: FaultVendor): boolean {
    const number = (this.seen.get(vendor) ?? 0) + 1;
    this.seen.set(vendor, number);
    const next = this.next.get(vendor) ?? 0;
    const refuse = next > 0 || hash(`${vendor}:${number}`) % 10_000 < (this.percent.get(vendor) ?? 0) * 100;
    if (next > 0) this.next.set(vendor, next - 1);
    if (refuse) this.refused.set(vendor, (this.refused.get(vendor) ?? 0) + 1);
    return refuse;
  }
}

/** Answers the calls `faults` picks with `rateLimited`, the vendor's own rate-limit error. */
export function rateLimitFaults(
  faults: SandboxFaults | undefined,
  vendor: FaultVendor,
  rateLimited: (c: Context) => Response,
): MiddlewareHandler {
  return async (c, next) => {
    if (faults?.take(vendor)) return rateLimited(c);
    await next();
  };
}

/** The per-request fault names the emulators' own fault code understands (X-Sandbox-Fault). */
type RequestFault = "partial" | "malformed";
const marked = new WeakMap<Request, RequestFault>();

/**
 * The fault asked of this request: its `X-Sandbox-Fault` header (an adapter test's), or the
 * vendor's standing partial or unreadable fault, which each emulator answers in its own shape.
 */
export function requestedFault(c: Context): string | undefined {
  return c.req.header("X-Sandbox-Fault") ?? marked.get(c.req.raw);
}

/** Resolves when the caller gives up on the request; never when it does not. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

const GATEWAY_ERROR_PAGE =
  "<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request. Please try again later.</p></body></html>";

/**
 * The standing faults of `vendor`, mounted by each emulator ahead of its own fault code: counts the
 * call, hangs, refuses the credentials with `refused` (the vendor's own rejection), sends a
 * gateway's HTML page, or marks the request so the emulator cuts its answer (`requestedFault`).
 */
export function vendorFaults(
  faults: SandboxFaults | undefined,
  vendor: FaultVendor,
  answers: { refused: (c: Context) => Response | Promise<Response> },
): MiddlewareHandler {
  return async (c, next) => {
    if (!faults) return next();
    faults.count(vendor);
    const fault = faults.standingFault(vendor);
    if (fault === "hang") {
      await untilAborted(c.req.raw.signal);
      // Nobody reads this: the caller has gone.
      return c.body(null, 504);
    }
    if (fault === "refuse_credentials") return answers.refused(c);
    if (fault === "unreadable_html") return c.html(GATEWAY_ERROR_PAGE, 200);
    if (fault === "partial") marked.set(c.req.raw, "partial");
    if (fault === "unreadable") marked.set(c.req.raw, "malformed");
    await next();
  };
}
