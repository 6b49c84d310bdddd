import { z } from "zod";
import { ProviderError } from "../errors";

/** SolaX sends numbers, numbers as strings ("inverterStatus": "102") and nulls. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);
const optionalNumber = numeric.nullish().transform((value) => value ?? null);
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);
/** Ids and codes stay strings (plant ids have 19 digits). */
const id = z.union([z.string().min(1), z.number()]).transform(String);
const optionalId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined || value === "" ? null : String(value)));

// ---- Token API (v1 getRealtimeInfo.do, v2 realtimeInfo/get) ----

export const tokenRealtimeSchema = z.object({
  inverterSN: optionalText,
  sn: optionalText,
  /** W */
  acpower: optionalNumber,
  /** kWh */
  yieldtoday: optionalNumber,
  /** kWh */
  yieldtotal: optionalNumber,
  inverterStatus: optionalId,
  /** Local time without an offset: "2024-07-01 12:25:04". */
  uploadTime: optionalText,
  /** v2 only: "2024-07-01T10:25:04Z". */
  utcDateTime: optionalText,
  /** °C; listed in the v2 document, rarely sent. */
  temperature: optionalNumber,
});
export type SolaxTokenRealtime = z.infer<typeof tokenRealtimeSchema>;

/** `result` is an object on success and may be a sentence ("this sn did not access!") on failure. */
export const tokenEnvelopeSchema = z.object({
  success: z.boolean().nullish(),
  exception: optionalText,
  code: optionalNumber,
  result: z.unknown().optional(),
});

// ---- Developer OpenAPI ----

export const openApiEnvelopeSchema = z.object({
  code: optionalNumber,
  message: optionalText,
  result: z.unknown().optional(),
});

export const oauthTokenResultSchema = z.object({
  access_token: z.string().min(1),
  /** Seconds. */
  expires_in: optionalNumber,
});

export const pageSchema = <T extends z.ZodType>(record: T) =>
  z.object({
    records: z.array(record),
    total: optionalNumber,
    pages: optionalNumber,
  });

/**
 * A plant of page_plant_info. Capacity (kWp), address and coordinates are read under the names
 * SolaX's clients use; any may be missing, and a value that is not a number is dropped.
 */
const lenientNumber = z
  .unknown()
  .optional()
  .transform((value): number | null => {
    const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    return typeof number === "number" && Number.isFinite(number) ? number : null;
  });
export const plantRecordSchema = z.object({
  plantId: id,
  plantName: optionalText,
  businessType: optionalNumber,
  /** kWp */
  pvCapacity: lenientNumber,
  capacity: lenientNumber,
  plantAddress: optionalText,
  address: optionalText,
  latitude: lenientNumber,
  longitude: lenientNumber,
});
export type SolaxPlantRecord = z.infer<typeof plantRecordSchema>;

export const deviceRecordSchema = z.object({
  deviceSn: id,
  plantId: optionalId,
  deviceType: optionalNumber,
  onlineStatus: optionalNumber,
});
export type SolaxDeviceRecord = z.infer<typeof deviceRecordSchema>;

export const realtimeRowSchema = z.object({
  deviceSn: id,
  /** Appendix 8.1 codes, as inverterStatus in the token API. */
  deviceStatus: optionalId,
  onlineStatus: optionalNumber,
  /** UTC: "2025-08-20T00:04:26Z". */
  dataTime: optionalText,
  /** The plant's wall clock: "2025-08-20 02:04:26". */
  plantLocalTime: optionalText,
  /** W */
  totalActivePower: optionalNumber,
  /** kWh */
  dailyYield: optionalNumber,
  dailyACOutput: optionalNumber,
  /** kWh */
  totalYield: optionalNumber,
  totalACOutput: optionalNumber,
  inverterTemperature: optionalNumber,
});
export type SolaxRealtimeRow = z.infer<typeof realtimeRowSchema>;
export const realtimeResultSchema = z
  .array(realtimeRowSchema)
  .nullish()
  .transform((rows) => rows ?? []);

export const alarmRecordSchema = z.object({
  deviceSn: optionalText,
  deviceType: optionalNumber,
  errorCode: optionalId,
  alarmName: optionalText,
  /** Local time without an offset: "2024-07-01 10:00:00". */
  alarmStartTime: z.string(),
  alarmState: optionalNumber,
});
export type SolaxAlarmRecord = z.infer<typeof alarmRecordSchema>;

/** Parses a SolaX answer, turning a shape mismatch into a readable "malformed" error. */
export function parseSolax<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new ProviderError(
    "malformed",
    `SolaX answered ${what} in an unexpected shape${where}: ${issue?.message ?? "invalid"}`,
  );
}
