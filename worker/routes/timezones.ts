import { Hono } from "hono";
import { z } from "zod";
import { timezoneSchema } from "../../schema/api/preferences";
import { listTimezones } from "../domain/timezones";
import type { AppEnv } from "../hono-env";
import { responds } from "../lib/responds";
import { requireAuth } from "../middleware/auth";

export const timezonesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("Timezones", z.array(timezoneSchema)), (c) => {
    c.header("Cache-Control", "private, max-age=3600");
    return c.json(listTimezones(new Date()));
  });
