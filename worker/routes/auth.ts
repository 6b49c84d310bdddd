import { Hono } from "hono";
import { z } from "zod";
import {
  acceptInviteBodySchema,
  accountSessionSchema,
  authResponseSchema,
  changePasswordBodySchema,
  endSessionsResponseSchema,
  loginBodySchema,
  passwordResetBodySchema,
  passwordResetConfirmSchema,
  profileSchema,
  registerBodySchema,
  resendVerificationResponseSchema,
  signupBodySchema,
  signupResponseSchema,
  verifyEmailBodySchema,
} from "../../schema/api/auth";
import { messageResponseSchema } from "../../schema/api/common";
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
  .post(
    "/register",
    responds("AuthResponse", authResponseSchema, { status: 201 }),
    validate("json", registerBodySchema),
    async (c) => c.json(await register(serviceContext(c), c.req.valid("json")), 201),
  )
  .post(
    "/login",
    responds("AuthResponse", authResponseSchema),
    validate("json", loginBodySchema),
    async (c) => c.json(await login(serviceContext(c), c.req.valid("json"))),
  )
  .post("/logout", requireAuth, responds("Message", messageResponseSchema), async (c) => {
    await endCurrentSession(userContext(c));
    return c.json({ message: "Signed out" });
  })
  .post(
    "/password",
    requireAuth,
    responds("Message", messageResponseSchema),
    validate("json", changePasswordBodySchema),
    async (c) => c.json(await changePassword(userContext(c), c.req.valid("json"))),
  )
  .post(
    "/password-reset",
    responds("Message", messageResponseSchema, { status: 202 }),
    validate("json", passwordResetBodySchema),
    async (c) => {
      await requestPasswordReset(
        { ...serviceContext(c), waitUntil: requestWaitUntil(c) },
        c.req.valid("json"),
      );
      return c.json({ message: "If an account exists for this address, a reset link is on its way." }, 202);
    },
  )
  .post(
    "/password-reset/confirm",
    responds("Message", messageResponseSchema),
    validate("json", passwordResetConfirmSchema),
    async (c) => {
      await confirmPasswordReset(serviceContext(c), c.req.valid("json"));
      return c.json({ message: "Password changed. Sign in with the new password." });
    },
  )
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
  .get("/sessions", requireAuth, responds("AccountSessions", z.array(accountSessionSchema)), async (c) =>
    c.json(await listSessions(userContext(c))),
  )
  .delete("/sessions", requireAuth, responds("EndSessionsResponse", endSessionsResponseSchema), async (c) => {
    const ended = await endOtherSessions(userContext(c));
    return c.json({ message: `Signed out of ${ended} other session(s)`, ended });
  })
  .post(
    "/signup",
    requireAuth,
    responds("SignupResponse", signupResponseSchema, { status: 201 }),
    validate("json", signupBodySchema),
    async (c) => c.json(await createOwnOrganization(userContext(c), c.req.valid("json").companyName), 201),
  )
  .post(
    "/accept-invite",
    requireAuth,
    responds("Profile", profileSchema),
    validate("json", acceptInviteBodySchema),
    async (c) => c.json(await acceptInvite(userContext(c), c.req.valid("json").inviteToken)),
  );
