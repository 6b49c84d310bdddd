/** Values vitest.config.ts provides to the benchmarks (their scale). */
declare module "vitest" {
  export interface ProvidedContext {
    /** Comma-separated providers the sync benchmark runs (BENCH_PROVIDERS). */
    benchProviders: string;
    /** Share of vendor calls the benchmarks' sandbox refuses with a rate-limit error. */
    benchRateLimitPercent: number;
    benchSystems: number;
    benchRawSystems: number;
  }
}

export {};
