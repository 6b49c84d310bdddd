import { z } from "zod";

/**
 * Zod schemas for the SolisCloud answers the adapter reads. Lenient where the vendor is
 * inconsistent: numbers arrive as JSON numbers or strings (sometimes ""), ids as strings.
 */

/** A number sent as a number, a numeric string, "" or null; "" and null mean "no value". */
export const looseNumber = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value, ctx): number | null => {
    if (value === null || value === undefined || value.toString().trim() === "") return null;
    const number = typeof value === "number" ? value : Number(value.trim());
    if (!Number.isFinite(number)) {
      ctx.addIssue({ code: "custom", message: `expected a number, got "${value}"` });
      return z.NEVER;
    }
    return number;
  });

/** Solis ids have 19 digits (beyond 2^53): kept as strings, and a number is only accepted if exact. */
export const vendorId = z.union([
  z.string().trim().min(1),
  z
    .number()
    .refine(Number.isSafeInteger, "an id sent as a number lost precision")
    .transform((id) => String(id)),
]);

const looseString = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? null : String(value).trim() || null));

/** The envelope of every answer: `code` "0" means success; `success` can be true on errors. */
export const envelopeSchema = z.object({
  code: z.union([z.string(), z.number()]).transform((code) => String(code)),
  msg: looseString,
  data: z.unknown().optional(),
});

/** Paged lists put their page under `data.page`, or (alarmList, inverterDetailList) straight in `data`. */
export const pageSchema = z.object({
  records: z.array(z.unknown()),
  total: looseNumber,
  pages: looseNumber,
  current: looseNumber,
});

export const stationSchema = z.object({
  id: vendorId,
  stationName: looseString,
  addr: looseString,
  latitude: looseNumber,
  longitude: looseNumber,
  capacity: looseNumber,
  capacityStr: looseString,
  power: looseNumber,
  powerStr: looseString,
  dayEnergy: looseNumber,
  dayEnergyStr: looseString,
  allEnergy: looseNumber,
  allEnergyStr: looseString,
  state: looseNumber,
  dataTimestamp: looseNumber,
  /** How many inverters the station has: a station is stored once that many have been read. */
  inverterCount: looseNumber,
});
export type SolisStation = z.infer<typeof stationSchema>;

/** inverterDetail / inverterDetailList record; inverterList spells the energies etoday/etotal. */
export const inverterSchema = z.object({
  id: vendorId,
  sn: looseString,
  stationId: vendorId,
  model: looseString,
  productModel: looseString,
  power: looseNumber,
  powerStr: looseString,
  pac: looseNumber,
  pacStr: looseString,
  pacPec: looseNumber,
  eToday: looseNumber,
  eTodayStr: looseString,
  etoday: looseNumber,
  etodayStr: looseString,
  eTotal: looseNumber,
  eTotalStr: looseString,
  etotal: looseNumber,
  etotalStr: looseString,
  inverterTemperature: looseNumber,
  state: looseNumber,
  dataTimestamp: looseNumber,
});
export type SolisInverter = z.infer<typeof inverterSchema>;

export const alarmSchema = z.object({
  stationId: vendorId,
  stationName: looseString,
  alarmDeviceSn: looseString,
  alarmCode: looseString,
  alarmLevel: looseNumber,
  alarmBeginTime: looseNumber.pipe(z.number({ error: "alarmBeginTime is missing" })),
  alarmEndTime: looseNumber,
  /** Duration in ms (the doc example's alarmLong equals end minus begin). */
  alarmLong: looseNumber,
  alarmMsg: looseString,
  advice: looseString,
  state: looseNumber,
});
export type SolisAlarm = z.infer<typeof alarmSchema>;

/** One 5-minute row of `stationDay` (a station's day curve): power, and energy produced since local midnight. */
export const stationDayRowSchema = z.object({
  time: looseNumber,
  power: looseNumber,
  powerStr: looseString,
  powerPec: looseNumber,
  produceEnergy: looseNumber,
  produceEnergyStr: looseString,
});
export type SolisStationDayRow = z.infer<typeof stationDayRowSchema>;
