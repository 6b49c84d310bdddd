import { z } from "zod";
import { ProviderError } from "../errors";

/** Numbers arrive as JSON numbers in every known sample; numeric strings are accepted too, to be safe. */
const lenientNumber = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, "expected a number")
    .transform(Number),
]);

/** Ids are strings in SMA's samples; a numeric id is kept as its string. */
const vendorId = z.union([z.string().min(1), z.number()]).transform(String);
const optionalText = z.string().nullish();
const optionalNumber = lenientNumber.nullish();

/** Keycloak's token answer (client credentials grant). */
export const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: lenientNumber,
  token_type: optionalText,
});

/** The backchannel consent: `{"state":"Accepted"}` once the owner has approved. */
export const consentSchema = z.object({ state: z.string() });

export const plantListSchema = z.object({
  plants: z.array(
    z.object({
      plantId: vendorId,
      name: z.string(),
      description: optionalText,
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
      peakPower: optionalNumber,
      acNominalPower: optionalNumber,
      orientation: z.object({ azimuth: optionalNumber, collectorSlope: optionalNumber }).nullish(),
    })
    .nullish(),
  location: z
    .object({
      address: z
        .object({
          country: optionalText,
          federalState: optionalText,
          city: optionalText,
          zipCode: optionalText,
          street: optionalText,
          streetNo: optionalText,
          longitude: optionalNumber,
          latitude: optionalNumber,
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
      name: optionalText,
      type: optionalText,
      product: optionalText,
      serial: z.union([z.string(), z.number()]).transform(String).nullish(),
      generatorPower: optionalNumber,
      generatorPowerDc: optionalNumber,
      isActive: z.boolean().nullish(),
    }),
  ),
});
export type SmaDevice = z.infer<typeof deviceListSchema>["devices"][number];

export const measurementSetsSchema = z.object({ sets: z.array(z.string()) });

/** One EnergyAndPowerPv series: plant-local times without offset; W, or Wh with ReturnEnergyValues. */
export const pvSeriesSchema = z.object({
  resolution: optionalText,
  set: z.array(z.object({ time: z.string().min(1), pvGeneration: lenientNumber.nullable() })),
});
export type SmaPvSeries = z.infer<typeof pvSeriesSchema>;

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unexpected shape";
  return issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message;
}

/** Parses a vendor answer; a wrong shape is a readable "malformed" error naming the field. */
export function parseVendor<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ProviderError(
      "malformed",
      `SMA's ${what} has an unexpected shape (${describeIssue(result.error)})`,
    );
  }
  return result.data;
}
