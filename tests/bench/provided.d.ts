/** Values vitest.config.ts provides to the benchmarks (their scale). */
declare module "vitest" {
  export interface ProvidedContext {
    benchSystems: number;
    benchRawSystems: number;
  }
}

export {};
