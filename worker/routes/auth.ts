import { Hono } from "hono";
import {
  acceptInviteBodySchema,
  changePasswordBodySchema,
  loginBodySchema,
  registerBodySchema,
  signupBodySchema,
} from "../../schema/api/auth";
import { type AppEnv, serviceContext, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { acceptInvite, changePassword, createOwnOrganization, login, register } from "../services/auth";
import { endCurrentSession, endOtherSessions, listSessions } from "../services/sessions";

export const authRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerBodySchema), async (c) =>
    c.json(await register(serviceContext(c), c.req.valid("json")), 201),
  )
  .post("/login", validate("json", loginBodySchema), async (c) =>
    c.json(await login(serviceContext(c), c.req.valid("json"))),
  )
  .post("/logout", requireAuth, async (c) => {
    await endCurrentSession(userContext(c));
    return c.json({ message: "Signed out" });
  })
  .post("/password", requireAuth, validate("json", changePasswordBodySchema), async (c) =>
    c.json(await changePassword(userContext(c), c.req.valid("json"))),
  )
  .get("/sessions", requireAuth, async (c) => c.json(await listSessions(userContext(c))))
  .delete("/sessions", requireAuth, async (c) => {
    const ended = await endOtherSessions(userContext(c));
    return c.json({ message: `Signed out of ${ended} other session(s)`, ended });
  })
  .post("/signup", requireAuth, validate("json", signupBodySchema), async (c) =>
    c.json(await createOwnOrganization(userContext(c), c.req.valid("json").companyName), 201),
  )
  .post("/accept-invite", requireAuth, validate("json", acceptInviteBodySchema), async (c) =>
    c.json(await acceptInvite(userContext(c), c.req.valid("json").inviteToken)),
  );
