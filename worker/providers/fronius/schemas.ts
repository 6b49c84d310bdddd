import { z } from "zod";
import { optionalVendorId, optionalVendorNumber, optionalVendorText, vendorId } from "../vendor-parse";

/** Solar.web sends numbers, now and then as strings ("value": "3215.0"); ids are GUIDs. */
const linksSchema = z
  .object({ next: optionalVendorText, totalItemsCount: optionalVendorNumber })
  .nullish()
  .transform((links) => links ?? { next: null, totalItemsCount: null });

export const pvSystemSchema = z.object({
  pvSystemId: vendorId,
  name: optionalVendorText,
  address: z
    .object({
      street: optionalVendorText,
      zipCode: optionalVendorText,
      city: optionalVendorText,
      state: optionalVendorText,
      country: optionalVendorText,
    })
    .nullish()
    .transform((address) => address ?? null),
  /** Watts peak. */
  peakPower: optionalVendorNumber,
  // The casing differs between sources: read both.
  timeZone: optionalVendorText,
  timezone: optionalVendorText,
});
export type FroniusPvSystem = z.infer<typeof pvSystemSchema>;

export const pvSystemsResponseSchema = z.object({ pvSystems: z.array(pvSystemSchema), links: linksSchema });

export const pvSystemsListResponseSchema = z.object({ pvSystemIds: z.array(vendorId), links: linksSchema });

export const devicesResponseSchema = z.object({
  devices: z.array(
    z.object({
      deviceType: z.string(),
      deviceId: vendorId,
      deviceName: optionalVendorText,
      deviceTypeDetails: optionalVendorText,
      serialnumber: optionalVendorId,
      /** Watts. */
      nominalAcPower: optionalVendorNumber,
      isActive: z.boolean().nullish(),
    }),
  ),
});
export type FroniusDevice = z.infer<typeof devicesResponseSchema>["devices"][number];

const channelSchema = z.object({
  channelName: z.string(),
  unit: optionalVendorText,
  value: optionalVendorNumber,
});
export type FroniusChannel = z.infer<typeof channelSchema>;

export const flowDataResponseSchema = z.object({
  status: z
    .object({ isOnline: z.boolean() })
    .nullish()
    .transform((status) => status ?? null),
  data: z
    .object({ logDateTime: optionalVendorText, channels: z.array(channelSchema).nullish() })
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
        logDuration: optionalVendorNumber,
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
      stateType: optionalVendorText,
      stateCode: optionalVendorId,
      stateSeverity: optionalVendorText,
      logDateTime: z.string(),
      text: optionalVendorText,
    }),
  ),
});
export type FroniusMessage = z.infer<typeof messagesResponseSchema>["messages"][number];
