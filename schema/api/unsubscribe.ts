import { z } from "zod";

/** The signed token of an unsubscribe link (in the link's query, or the confirming form's body). */
export const unsubscribeTokenSchema = z.object({ token: z.string().min(1).max(2048) });
export type UnsubscribeToken = z.infer<typeof unsubscribeTokenSchema>;
