import type { Context, MiddlewareHandler } from "hono";
import { hash } from "./simulation";

/** The emulators whose calls can be rate-limited on demand. */
export type FaultVendor = "solis" | "fronius" | "sma" | "solax" | "solax-openapi";

/**
 * Rate-limit faults shared by the emulators of one sandbox: "refuse the next K calls" and
 * "refuse N % of calls", each answered with the vendor's own rate-limit error. The share is
 * deterministic (a hash of the call's number), so a run can be repeated exactly.
 */
export class SandboxFaults {
  private readonly next = new Map<FaultVendor, number>();
  private readonly percent = new Map<FaultVendor, number>();
  private readonly seen = new Map<FaultVendor, number>();
  /** Calls answered with a rate-limit error, per vendor. */
  readonly refused = new Map<FaultVendor, number>();

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

  clear(): void {
    this.next.clear();
    this.percent.clear();
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
