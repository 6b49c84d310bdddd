import { z } from "zod";
import { systemStates } from "../domain";
import { systemOrientationSchema } from "./orientation";
import { providerIdSchema } from "./providers";
import { acLimitInput, azimuthInput, tiltInput } from "./sites";

/**
 * A system's array and inverter as the user describes them: tilt from horizontal (0-90°),
 * azimuth clockwise from north (0-360°, 180 = facing south) and the AC limit in kW. Null clears
 * a value (the default applies again); a field left out stays as it is.
 */
export const updateSystemBodySchema = z
  .strictObject({
    tiltDeg: tiltInput.nullable().optional(),
    azimuthDeg: azimuthInput.nullable().optional(),
    acLimitKw: acLimitInput.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Nothing to update",
  });
export type UpdateSystemBody = z.infer<typeof updateSystemBodySchema>;
export type UpdateSystemInput = z.input<typeof updateSystemBodySchema>;

/** One monitoring system with its orientation: what PATCH /api/systems/{id} answers. */
export const systemDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: providerIdSchema,
  providerId: z.string(),
  /** The site it is attached to, or null. */
  siteId: z.string().nullable(),
  /** kW DC, or null when the provider does not report it. */
  capacity: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  state: z.enum(systemStates),
  orientation: systemOrientationSchema,
});
export type SystemDetail = z.infer<typeof systemDetailSchema>;
