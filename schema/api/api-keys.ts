import { z } from "zod";

export const apiKeyScopes = ["read", "write"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, "Name the key").max(100),
  scope: z.enum(apiKeyScopes),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiKeyScopes),
  /** The key's first characters, never the whole key. */
  prefix: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The create answer: the only time the key itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
