import { z } from "zod";
import { latitudeInput, longitudeInput, numberInput } from "./sites";

/** An estimate needs a location and a total capacity above 0 (kW, number or numeric string). */
export const estimateYieldBodySchema = z.strictObject({
  latitude: latitudeInput,
  longitude: longitudeInput,
  capacity: numberInput("Capacity").pipe(
    z
      .number()
      .positive("Capacity must be greater than 0")
      .max(10_000_000, "Capacity must be at most 10,000,000 kW"),
  ),
  /** Degrees from horizontal; defaults to the latitude's optimum. */
  tiltDeg: numberInput("Tilt")
    .pipe(
      z
        .number()
        .min(0, "Tilt must be between 0 and 90 degrees")
        .max(90, "Tilt must be between 0 and 90 degrees"),
    )
    .optional(),
  /** Degrees clockwise from north; defaults to facing the equator. */
  azimuthDeg: numberInput("Azimuth")
    .pipe(
      z
        .number()
        .min(0, "Azimuth must be between 0 and 360 degrees")
        .max(360, "Azimuth must be between 0 and 360 degrees"),
    )
    .optional(),
  /** kW; power above it is clipped. */
  acLimitKw: numberInput("AC limit").pipe(z.number().positive("AC limit must be greater than 0")).optional(),
});
export type EstimateYieldBody = z.infer<typeof estimateYieldBodySchema>;
export type EstimateYieldInput = z.input<typeof estimateYieldBodySchema>;

export const yieldEstimateSchema = z.object({
  /** kWh per year. */
  annualYield: z.number(),
  /** kWh per month: the annual yield over 12. */
  monthlyAverage: z.number(),
  /** kWh in each calendar month, January first. */
  monthlyYield: z.array(z.number()),
  /** kWh per kWp per year. */
  specificYield: z.number(),
  /** Hours per day of 1 kW/m² sun on the panels (plane-of-array irradiation, kWh/m²/day). */
  peakSunHours: z.number(),
  /** Average daily global horizontal irradiation, kWh/m²/day (not an instantaneous W/m²). */
  solarIrradiance: z.number(),
  /** Annual AC energy over the plane-of-array irradiation at STC (0-1). */
  performanceRatio: z.number(),
  tiltDeg: z.number(),
  azimuthDeg: z.number(),
});
export type YieldEstimateResponse = z.infer<typeof yieldEstimateSchema>;
