import { z } from "zod";

export const orgSettingsSchema = z.object({
  /** Each synced plant with a place becomes a site of its own (on by default). */
  autoCreateSites: z.boolean(),
});
export type OrgSettings = z.infer<typeof orgSettingsSchema>;

export const updateOrgSettingsBodySchema = z
  .strictObject({ autoCreateSites: z.boolean().optional() })
  .refine((body) => body.autoCreateSites !== undefined, { message: "Nothing to update" });
export type UpdateOrgSettingsBody = z.infer<typeof updateOrgSettingsBodySchema>;
