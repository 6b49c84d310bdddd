import { z } from "zod";
import { optionalVendorId, optionalVendorNumber, optionalVendorText, vendorId } from "../vendor-parse";

// SolaX sends numbers, numbers as strings ("inverterStatus": "102") and nulls; ids and codes stay
// strings (plant ids have 19 digits).

// ---- Token API (v1 getRealtimeInfo.do, v2 realtimeInfo/get) ----

export const tokenRealtimeSchema = z.object({
  inverterSN: optionalVendorText,
  sn: optionalVendorText,
  /** W */
  acpower: optionalVendorNumber,
  /** kWh */
  yieldtoday: optionalVendorNumber,
  /** kWh */
  yieldtotal: optionalVendorNumber,
  inverterStatus: optionalVendorId,
  /** Local time without an offset: "2024-07-01 12:25:04". */
  uploadTime: optionalVendorText,
  /** v2 only: "2024-07-01T10:25:04Z". */
  utcDateTime: optionalVendorText,
  /** °C; listed in the v2 document, rarely sent. */
  temperature: optionalVendorNumber,
});
export type SolaxTokenRealtime = z.infer<typeof tokenRealtimeSchema>;

/** `result` is an object on success and may be a sentence ("this sn did not access!") on failure. */
export const tokenEnvelopeSchema = z.object({
  success: z.boolean().nullish(),
  exception: optionalVendorText,
  code: optionalVendorNumber,
  result: z.unknown().optional(),
});

// ---- Developer OpenAPI ----

export const openApiEnvelopeSchema = z.object({
  code: optionalVendorNumber,
  message: optionalVendorText,
  result: z.unknown().optional(),
});

export const oauthTokenResultSchema = z.object({
  access_token: z.string().min(1),
  /** Seconds. */
  expires_in: optionalVendorNumber,
});

export const pageSchema = <T extends z.ZodType>(record: T) =>
  z.object({
    records: z.array(record),
    total: optionalVendorNumber,
    pages: optionalVendorNumber,
  });

/**
 * A plant of page_plant_info. Capacity (kWp), address and coordinates are read under the names
 * SolaX's clients use; any may be missing.
 */
export const plantRecordSchema = z.object({
  plantId: vendorId,
  plantName: optionalVendorText,
  businessType: optionalVendorNumber,
  /** kWp */
  pvCapacity: optionalVendorNumber,
  capacity: optionalVendorNumber,
  plantAddress: optionalVendorText,
  address: optionalVendorText,
  latitude: optionalVendorNumber,
  longitude: optionalVendorNumber,
});
export type SolaxPlantRecord = z.infer<typeof plantRecordSchema>;

export const deviceRecordSchema = z.object({
  deviceSn: vendorId,
  plantId: optionalVendorId,
  deviceType: optionalVendorNumber,
  onlineStatus: optionalVendorNumber,
});
export type SolaxDeviceRecord = z.infer<typeof deviceRecordSchema>;

export const realtimeRowSchema = z.object({
  deviceSn: vendorId,
  /** Appendix 8.1 codes, as inverterStatus in the token API. */
  deviceStatus: optionalVendorId,
  onlineStatus: optionalVendorNumber,
  /** UTC: "2025-08-20T00:04:26Z". */
  dataTime: optionalVendorText,
  /** The plant's wall clock: "2025-08-20 02:04:26". */
  plantLocalTime: optionalVendorText,
  /** W */
  totalActivePower: optionalVendorNumber,
  /** kWh */
  dailyYield: optionalVendorNumber,
  dailyACOutput: optionalVendorNumber,
  /** kWh */
  totalYield: optionalVendorNumber,
  totalACOutput: optionalVendorNumber,
  inverterTemperature: optionalVendorNumber,
});
export type SolaxRealtimeRow = z.infer<typeof realtimeRowSchema>;
export const realtimeResultSchema = z
  .array(realtimeRowSchema)
  .nullish()
  .transform((rows) => rows ?? []);

export const alarmRecordSchema = z.object({
  deviceSn: optionalVendorText,
  deviceType: optionalVendorNumber,
  errorCode: optionalVendorId,
  alarmName: optionalVendorText,
  /** Local time without an offset: "2024-07-01 10:00:00". */
  alarmStartTime: z.string(),
  alarmState: optionalVendorNumber,
});
export type SolaxAlarmRecord = z.infer<typeof alarmRecordSchema>;
