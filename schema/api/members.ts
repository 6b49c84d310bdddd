import { z } from "zod";
import { memberPermissionSchema, roleSchema } from "../roles";
import { emailSchema } from "./common";

export const INVITE_TTL_DAYS = 7;

const permissionsSchema = z.array(memberPermissionSchema).max(10).nullable();

export const inviteBodySchema = z.strictObject({
  email: emailSchema,
  role: roleSchema,
  permissions: permissionsSchema.optional(),
});
export type InviteBody = z.infer<typeof inviteBodySchema>;

export const changeRoleBodySchema = z.strictObject({ role: roleSchema });
export const permissionsBodySchema = z.strictObject({ permissions: permissionsSchema });

export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  permissions: z.array(memberPermissionSchema).nullable(),
  createdAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const inviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  permissions: z.array(memberPermissionSchema).nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
  invitedBy: z.string().nullable(),
});
export type Invite = z.infer<typeof inviteSchema>;

/** The invite answer carries the accept link once: there is no e-mail service yet. */
export const inviteCreatedSchema = z.object({
  invite: inviteSchema,
  inviteLink: z.string(),
  message: z.string(),
});
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;
