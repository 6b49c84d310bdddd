import { Hono } from "hono";
import pkg from "../../package.json";
import type { AppEnv } from "../hono-env";

export const healthRoutes = new Hono<AppEnv>().get("/", (c) =>
  c.json({ status: "ok", version: pkg.version }),
);
