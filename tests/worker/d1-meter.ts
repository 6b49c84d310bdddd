import { env } from "cloudflare:workers";

/** What a metered D1 binding counted: statements, calls to D1 (a batch is one) and the rows written (indexes included). */
export interface D1Meter {
  /** Statements prepared. */
  statements: number;
  roundTrips: number;
  /** Wall-clock time spent waiting for D1. */
  ms: number;
  rowsWritten: number;
  /** Rows written by each statement's first words (`UPDATE provider_connections`, …). */
  bySql: Map<string, number>;
}

const statementName = (sql: string) => sql.trim().replace(/\s+/g, " ").split(" ").slice(0, 12).join(" ");

/**
 * `env.DB` behind a meter: every statement run alone or in a batch adds the rows D1 reports it
 * wrote (`meta.rows_written`, which counts index entries and trigger writes as D1 bills them).
 * `raw()` is answered from `all()` (as drizzle maps a batch's rows) so its meta can be read.
 */
export function meteredD1(d1: D1Database = env.DB): { db: D1Database; meter: D1Meter } {
  const meter: D1Meter = { statements: 0, roundTrips: 0, ms: 0, rowsWritten: 0, bySql: new Map() };
  /** One call to D1, timed. */
  const called = async <T>(call: () => Promise<T>): Promise<T> => {
    meter.roundTrips++;
    const calledAtMs = Date.now();
    try {
      return await call();
    } finally {
      meter.ms += Date.now() - calledAtMs;
    }
  };
  const add = (sql: string, result: D1Result) => {
    const rows = result.meta.rows_written ?? 0;
    meter.rowsWritten += rows;
    const name = statementName(sql);
    meter.bySql.set(name, (meter.bySql.get(name) ?? 0) + rows);
  };
  const sqlOf = new WeakMap<object, string>();
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const metered = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => metered(target.bind(...values), sql);
        if (property === "run" || property === "all")
          return async () => {
            const result = await called(() => target.all());
            add(sql, result);
            return result;
          };
        if (property === "first")
          return async (column?: string) => {
            const result = await called(() => target.all<Record<string, unknown>>());
            add(sql, result);
            const row = result.results[0] ?? null;
            return column === undefined || row === null ? row : row[column];
          };
        if (property === "raw")
          return async () => {
            const result = await called(() => target.all<Record<string, unknown>>());
            add(sql, result);
            return result.results.map((row) => Object.values(row));
          };
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    sqlOf.set(proxy, sql);
    unwrapped.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare")
        return (sql: string) => {
          meter.statements++;
          return metered(target.prepare(sql), sql);
        };
      if (property === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const results = await called(() => target.batch(statements.map((s) => unwrapped.get(s) ?? s)));
          for (const [i, result] of results.entries())
            add(sqlOf.get(statements[i] as object) ?? "batch", result);
          return results;
        };
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, meter };
}
