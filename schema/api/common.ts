import { z } from "zod";

/** The one error body every failing request answers with. */
export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ error: "Enter a valid email address" }))
  .transform((email) => email.toLowerCase());

export const idParamSchema = z.strictObject({ id: z.string().min(1).max(64) });

export const messageResponseSchema = z.object({ message: z.string() });
