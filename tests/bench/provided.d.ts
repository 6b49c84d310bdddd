/** Values vitest.config.ts provides to the benchmarks (their scale). */
declare module "vitest" {
  export interface ProvidedContext {
    /** Comma-separated providers the sync benchmark runs (BENCH_PROVIDERS). */
    benchProviders: string;
    /** Share of vendor calls the benchmarks' sandbox refuses with a rate-limit error. */
    benchRateLimitPercent: number;
    benchSystems: number;
    benchRawSystems: number;
    /** The raw window's last UTC days written through the store's write path (BENCH_PAGED_DAYS). */
    benchPagedDays: number;
    benchShardSystems: number;
  }
}

export {};
