import { z } from "zod";
import { roleSchema } from "../roles";
import { emailSchema } from "./common";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-limits";

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` });

const companyNameSchema = z.string().trim().min(1, { error: "Company name is required" }).max(120);

export const registerBodySchema = z
  .strictObject({
    email: emailSchema,
    password: passwordSchema,
    fullName: z.string().trim().min(1, { error: "Full name is required" }).max(120),
    companyName: companyNameSchema.optional(),
    inviteToken: z.string().trim().min(1).max(200).optional(),
  })
  .refine((body) => body.inviteToken !== undefined || body.companyName !== undefined, {
    error: "Company name is required",
    path: ["companyName"],
  });
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.strictObject({
  email: emailSchema,
  // Any length is accepted here so an old or wrong password gets the same 401, not a 400.
  password: z.string().min(1, { error: "Password is required" }).max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const signupBodySchema = z.strictObject({ companyName: companyNameSchema });
export type SignupBody = z.infer<typeof signupBodySchema>;

export const acceptInviteBodySchema = z.strictObject({
  inviteToken: z.string().trim().min(1).max(200),
});

/** The user object login and registration answer with (stored client-side as auth_user). */
export const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  companyId: z.string().nullable(),
  user_metadata: z.object({ companyName: z.string().nullable() }),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const authResponseSchema = z.object({
  token: z.string(),
  user: authUserSchema,
  isFirstUser: z.boolean(),
  company: z.object({ name: z.string() }).nullable(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const signupResponseSchema = z.object({
  isFirstUser: z.boolean(),
  company: z.object({ name: z.string() }),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  companyName: z.string().nullable(),
  companyId: z.string().nullable(),
  onboardingRequired: z.boolean(),
  permissions: z.array(z.string()).nullable(),
  /** Whether the address was proven (link, password reset or invite); API keys and invites wait for it. */
  emailVerified: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

export const verifyEmailBodySchema = z.strictObject({
  token: z.string().trim().min(1, { error: "Token is required" }).max(200),
});
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;

/** "Send again": whether a new link went out (false when the address is already verified). */
export const resendVerificationResponseSchema = z.object({ sent: z.boolean(), message: z.string() });
export type ResendVerificationResponse = z.infer<typeof resendVerificationResponseSchema>;

export const changePasswordBodySchema = z.strictObject({
  // Any length here, so a wrong current password is a 401 rather than a 400 that hints at rules.
  currentPassword: z.string().min(1, { error: "Current password is required" }).max(1024),
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** One signed-in session of the account (Settings → Account). */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** Browser and system from the User-Agent at sign-in ("Firefox on Linux"). */
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const endSessionsResponseSchema = z.object({ message: z.string(), ended: z.number() });
export type EndSessionsResponse = z.infer<typeof endSessionsResponseSchema>;

export const passwordResetBodySchema = z.strictObject({ email: emailSchema });
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

export const passwordResetConfirmSchema = z.strictObject({
  token: z.string().trim().min(1, { error: "Token is required" }).max(200),
  password: passwordSchema,
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;
