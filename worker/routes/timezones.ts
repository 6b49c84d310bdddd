import { Hono } from "hono";
import { listTimezones } from "../domain/timezones";
import type { AppEnv } from "../hono-env";
import { requireAuth } from "../middleware/auth";

export const timezonesRoutes = new Hono<AppEnv>().use(requireAuth).get("/", (c) => {
  c.header("Cache-Control", "private, max-age=3600");
  return c.json(listTimezones(new Date()));
});
