import { drizzle } from "drizzle-orm/d1";
import * as tables from "../../schema/tables";

export const createDb = (d1: D1Database) => drizzle(d1, { schema: tables });
export type Db = ReturnType<typeof createDb>;
