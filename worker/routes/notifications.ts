import { Hono } from "hono";
import {
  notificationsReadSchema,
  notificationsSchema,
  unreadCountSchema,
} from "../../schema/api/notifications";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { getNotifications, markNotificationsRead } from "../services/notifications";

export const notificationsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("Notifications", notificationsSchema), async (c) =>
    c.json(await getNotifications(userContext(c))),
  )
  .post(
    "/read",
    responds("UnreadCount", unreadCountSchema),
    validate("json", notificationsReadSchema),
    async (c) => c.json(await markNotificationsRead(userContext(c), c.req.valid("json"))),
  );
