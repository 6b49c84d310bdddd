import { Hono } from "hono";
import pkg from "../../package.json";
import { healthSchema } from "../../schema/api/health";
import type { AppEnv } from "../hono-env";
import { responds } from "../lib/responds";

export const healthRoutes = new Hono<AppEnv>().get("/", responds("Health", healthSchema), (c) =>
  c.json({ status: "ok" as const, version: pkg.version }),
);
