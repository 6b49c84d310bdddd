import { z } from "zod";
import {
  optionalVendorId,
  optionalVendorNumber,
  optionalVendorText,
  vendorId,
  vendorNumber,
} from "../vendor-parse";

// Numbers arrive as JSON numbers and ids as strings in every known sample; the shared rules also
// read numeric strings and whole-number ids.

/** Keycloak's token answer (client credentials grant). */
export const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: vendorNumber,
  token_type: optionalVendorText,
});

/** The backchannel consent: `{"state":"Accepted"}` once the owner has approved. */
export const consentSchema = z.object({ state: z.string() });

export const plantListSchema = z.object({
  plants: z.array(
    z.object({
      plantId: vendorId,
      name: z.string(),
      description: optionalVendorText,
      timezone: z.string().min(1),
    }),
  ),
});
export type SmaListedPlant = z.infer<typeof plantListSchema>["plants"][number];

export const plantSchema = z.object({
  plantId: vendorId,
  name: z.string(),
  timezone: z.string().min(1),
  installation: z
    .object({
      peakPower: optionalVendorNumber,
      acNominalPower: optionalVendorNumber,
      orientation: z
        .object({ azimuth: optionalVendorNumber, collectorSlope: optionalVendorNumber })
        .nullish(),
    })
    .nullish(),
  location: z
    .object({
      address: z
        .object({
          country: optionalVendorText,
          federalState: optionalVendorText,
          city: optionalVendorText,
          zipCode: optionalVendorText,
          street: optionalVendorText,
          streetNo: optionalVendorText,
          longitude: optionalVendorNumber,
          latitude: optionalVendorNumber,
        })
        .nullish(),
    })
    .nullish(),
});
export type SmaPlant = z.infer<typeof plantSchema>;
export type SmaAddress = NonNullable<NonNullable<SmaPlant["location"]>["address"]>;

export const deviceListSchema = z.object({
  devices: z.array(
    z.object({
      deviceId: vendorId,
      name: optionalVendorText,
      type: optionalVendorText,
      product: optionalVendorText,
      serial: optionalVendorId,
      generatorPower: optionalVendorNumber,
      generatorPowerDc: optionalVendorNumber,
      isActive: z.boolean().nullish(),
    }),
  ),
});
export type SmaDevice = z.infer<typeof deviceListSchema>["devices"][number];

export const measurementSetsSchema = z.object({ sets: z.array(z.string()) });

/** One EnergyAndPowerPv series: plant-local times without offset; W, or Wh with ReturnEnergyValues. */
export const pvSeriesSchema = z.object({
  resolution: optionalVendorText,
  set: z.array(z.object({ time: z.string().min(1), pvGeneration: vendorNumber.nullable() })),
});
export type SmaPvSeries = z.infer<typeof pvSeriesSchema>;
