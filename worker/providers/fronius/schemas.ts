import { z } from "zod";
import { ProviderError } from "../errors";

/** Solar.web sends numbers, and now and then numbers as strings ("value": "3215.0"). */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);
const optionalNumber = numeric.nullish().transform((value) => value ?? null);
/** Ids are GUIDs; keep anything the vendor sends as a string. */
const id = z.union([z.string().min(1), z.number()]).transform(String);
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const linksSchema = z
  .object({ next: optionalText, totalItemsCount: optionalNumber })
  .nullish()
  .transform((links) => links ?? { next: null, totalItemsCount: null });

export const pvSystemSchema = z.object({
  pvSystemId: id,
  name: optionalText,
  address: z
    .object({
      street: optionalText,
      zipCode: optionalText,
      city: optionalText,
      state: optionalText,
      country: optionalText,
    })
    .nullish()
    .transform((address) => address ?? null),
  /** Watts peak. */
  peakPower: optionalNumber,
  // The casing differs between sources: read both.
  timeZone: optionalText,
  timezone: optionalText,
});
export type FroniusPvSystem = z.infer<typeof pvSystemSchema>;

export const pvSystemsResponseSchema = z.object({ pvSystems: z.array(pvSystemSchema), links: linksSchema });

export const pvSystemsListResponseSchema = z.object({ pvSystemIds: z.array(id), links: linksSchema });

export const devicesResponseSchema = z.object({
  devices: z.array(
    z.object({
      deviceType: z.string(),
      deviceId: id,
      deviceName: optionalText,
      deviceTypeDetails: optionalText,
      serialnumber: z
        .union([z.string(), z.number()])
        .nullish()
        .transform((value) => (value === null || value === undefined ? null : String(value))),
      /** Watts. */
      nominalAcPower: optionalNumber,
      isActive: z.boolean().nullish(),
    }),
  ),
});
export type FroniusDevice = z.infer<typeof devicesResponseSchema>["devices"][number];

const channelSchema = z.object({
  channelName: z.string(),
  unit: optionalText,
  value: optionalNumber,
});
export type FroniusChannel = z.infer<typeof channelSchema>;

export const flowDataResponseSchema = z.object({
  status: z
    .object({ isOnline: z.boolean() })
    .nullish()
    .transform((status) => status ?? null),
  data: z
    .object({ logDateTime: optionalText, channels: z.array(channelSchema).nullish() })
    .nullish()
    .transform((data) => data ?? null),
});
export type FroniusFlowData = z.infer<typeof flowDataResponseSchema>;

export const aggrDataResponseSchema = z.object({
  data: z
    .array(z.object({ logDateTime: z.string(), channels: z.array(channelSchema).nullish() }))
    .nullish()
    .transform((data) => data ?? []),
});

/** histdata: one row per bucket, logDateTime in UTC at the bucket's close, logDuration in seconds. */
export const histDataResponseSchema = z.object({
  data: z
    .array(
      z.object({
        logDateTime: z.string(),
        logDuration: optionalNumber,
        channels: z.array(channelSchema).nullish(),
      }),
    )
    .nullish()
    .transform((data) => data ?? []),
});

/** The messages call's shape is unverified: parsed leniently. */
export const messagesResponseSchema = z.object({
  messages: z.array(
    z.object({
      stateType: optionalText,
      stateCode: z
        .union([z.string(), z.number()])
        .nullish()
        .transform((value) => (value === null || value === undefined ? null : String(value))),
      stateSeverity: optionalText,
      logDateTime: z.string(),
      text: optionalText,
    }),
  ),
});
export type FroniusMessage = z.infer<typeof messagesResponseSchema>["messages"][number];

/** Parses a Solar.web answer, turning a shape mismatch into a readable "malformed" error. */
export function parseFronius<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new ProviderError(
    "malformed",
    `Solar.web answered ${what} in an unexpected shape${where}: ${issue?.message ?? "invalid"}`,
  );
}
