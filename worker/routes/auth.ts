import { Hono } from "hono";
import {
  acceptInviteBodySchema,
  authResponseSchema,
  changePasswordBodySchema,
  loginBodySchema,
  passwordResetBodySchema,
  passwordResetConfirmSchema,
  registerBodySchema,
  resendVerificationResponseSchema,
  signupBodySchema,
  verifyEmailBodySchema,
} from "../../schema/api/auth";
import { type AppEnv, requestWaitUntil, serviceContext, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import {
  acceptInvite,
  changePassword,
  createOwnOrganization,
  login,
  register,
  verifyEmail,
} from "../services/auth";
import { resendVerification } from "../services/email-verification";
import { confirmPasswordReset, requestPasswordReset } from "../services/password-reset";
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
  .post("/password-reset", validate("json", passwordResetBodySchema), async (c) => {
    await requestPasswordReset({ ...serviceContext(c), waitUntil: requestWaitUntil(c) }, c.req.valid("json"));
    return c.json({ message: "If an account exists for this address, a reset link is on its way." }, 202);
  })
  .post("/password-reset/confirm", validate("json", passwordResetConfirmSchema), async (c) => {
    await confirmPasswordReset(serviceContext(c), c.req.valid("json"));
    return c.json({ message: "Password changed. Sign in with the new password." });
  })
  // The link mailed after sign-up: verifies the address and signs in (no token needed).
  .post(
    "/verify-email",
    validate("json", verifyEmailBodySchema),
    responds("AuthResponse", authResponseSchema),
    async (c) => c.json(await verifyEmail(serviceContext(c), c.req.valid("json").token)),
  )
  .post(
    "/verify-email/resend",
    requireAuth,
    responds("ResendVerificationResponse", resendVerificationResponseSchema),
    async (c) => c.json(await resendVerification(userContext(c))),
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
