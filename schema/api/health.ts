import { z } from "zod";

/** `GET /api/health`: the worker answers, with the version it runs. */
export const healthSchema = z.object({ status: z.literal("ok"), version: z.string() });
export type Health = z.infer<typeof healthSchema>;
