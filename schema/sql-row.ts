import type { Column, Table } from "drizzle-orm";

/** What SQLite hands back for a column read by raw SQL: booleans as 0/1 and JSON as its text, as stored. */
type StoredValue<C extends Column> = C["_"]["dataType"] extends "boolean"
  ? number
  : C["_"]["dataType"] extends "json"
    ? string
    : C["_"]["data"];

type Columns<T extends Table> = T["_"]["columns"];

/** A column's SQL name; a name typed only as `string` drops the column, so picking it fails to compile. */
type SqlName<C extends Column> = string extends C["_"]["name"] ? never : C["_"]["name"];

/**
 * A table's row as raw SQL returns it (D1's `prepare().all()`, the fleet store's `db.all(sql…)`):
 * keyed by SQL column names, each typed from its drizzle column. Raw queries pick their row types
 * from it, so a column renamed or retyped in the schema breaks the code that reads it.
 */
export type SqlRow<T extends Table> = {
  [K in keyof Columns<T> & string as SqlName<Columns<T>[K]>]:
    | StoredValue<Columns<T>[K]>
    | (Columns<T>[K]["_"]["notNull"] extends true ? never : null);
};

/** Columns of a LEFT JOINed table: each is null when no row joined. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };
