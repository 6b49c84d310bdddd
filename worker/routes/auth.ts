import { Hono } from "hono";
import {
  acceptInviteBodySchema,
  loginBodySchema,
  registerBodySchema,
  signupBodySchema,
} from "../../schema/api/auth";
import { type AppEnv, serviceContext, userContext } from "../hono-env";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { acceptInvite, createOwnOrganization, login, logout, register } from "../services/auth";

export const authRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerBodySchema), async (c) =>
    c.json(await register(serviceContext(c), c.req.valid("json")), 201),
  )
  .post("/login", validate("json", loginBodySchema), async (c) =>
    c.json(await login(serviceContext(c), c.req.valid("json"))),
  )
  .post("/logout", requireAuth, async (c) => {
    await logout(userContext(c));
    return c.json({ message: "Signed out" });
  })
  .post("/signup", requireAuth, validate("json", signupBodySchema), async (c) =>
    c.json(await createOwnOrganization(userContext(c), c.req.valid("json").companyName), 201),
  )
  .post("/accept-invite", requireAuth, validate("json", acceptInviteBodySchema), async (c) =>
    c.json(await acceptInvite(userContext(c), c.req.valid("json").inviteToken)),
  );
