import { Hono } from "hono";
import type { AppEnv } from "../hono-env";
import { requireAuth } from "../middleware/auth";
import { listTimezones } from "../services/timezones";

export const timezonesRoutes = new Hono<AppEnv>().use(requireAuth).get("/", (c) => {
  c.header("Cache-Control", "private, max-age=3600");
  return c.json(listTimezones(new Date()));
});
