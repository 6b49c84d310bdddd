import { z } from "zod";
import type { MemberPermission } from "../roles";

export const apiKeyScopes = ["read", "write"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** The areas a write key may change: the organisation's data, never its members, keys or audit log. */
export const apiKeyPermissions = [
  "credentials",
  "sites",
  "portfolios",
] as const satisfies readonly MemberPermission[];
export const apiKeyPermissionSchema = z.enum(apiKeyPermissions);
export type ApiKeyPermission = z.infer<typeof apiKeyPermissionSchema>;

/** A key works this many days unless its creator chooses fewer or more. */
export const API_KEY_DEFAULT_TTL_DAYS = 365;
/** The longest a key can be made to work. */
export const API_KEY_MAX_TTL_DAYS = 730;

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, "Name the key").max(100),
  scope: z.enum(apiKeyScopes),
  /** Write keys only: the areas the key may change, each held by its creator; the creator's own when left out. */
  permissions: z.array(apiKeyPermissionSchema).min(1).max(apiKeyPermissions.length).optional(),
  /** Days until the key stops working; 365 when left out. */
  expiresInDays: z.number().int().min(1).max(API_KEY_MAX_TTL_DAYS).optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiKeyScopes),
  /** The areas a write key may change; empty for a read key. */
  permissions: z.array(apiKeyPermissionSchema),
  /** The key's first characters, never the whole key. */
  prefix: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** After this time the key answers 401. */
  expiresAt: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The create answer: the only time the key itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
