import { z } from "zod";
import { optionalVendorNumber, vendorId } from "../vendor-parse";

/**
 * Zod schemas for the SolisCloud answers the adapter reads. Lenient where the vendor is
 * inconsistent: numbers arrive as JSON numbers or strings (sometimes ""), ids as strings (19
 * digits, beyond 2^53), read by the shared vendor rules.
 */

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
  total: optionalVendorNumber,
  pages: optionalVendorNumber,
  current: optionalVendorNumber,
});

export const stationSchema = z.object({
  id: vendorId,
  stationName: looseString,
  addr: looseString,
  latitude: optionalVendorNumber,
  longitude: optionalVendorNumber,
  capacity: optionalVendorNumber,
  capacityStr: looseString,
  power: optionalVendorNumber,
  powerStr: looseString,
  dayEnergy: optionalVendorNumber,
  dayEnergyStr: looseString,
  allEnergy: optionalVendorNumber,
  allEnergyStr: looseString,
  state: optionalVendorNumber,
  dataTimestamp: optionalVendorNumber,
  /** How many inverters the station has: a station is stored once that many have been read. */
  inverterCount: optionalVendorNumber,
});
export type SolisStation = z.infer<typeof stationSchema>;

/** inverterDetail / inverterDetailList record; inverterList spells the energies etoday/etotal. */
export const inverterSchema = z.object({
  id: vendorId,
  sn: looseString,
  stationId: vendorId,
  model: looseString,
  productModel: looseString,
  power: optionalVendorNumber,
  powerStr: looseString,
  pac: optionalVendorNumber,
  pacStr: looseString,
  pacPec: optionalVendorNumber,
  eToday: optionalVendorNumber,
  eTodayStr: looseString,
  etoday: optionalVendorNumber,
  etodayStr: looseString,
  eTotal: optionalVendorNumber,
  eTotalStr: looseString,
  etotal: optionalVendorNumber,
  etotalStr: looseString,
  inverterTemperature: optionalVendorNumber,
  state: optionalVendorNumber,
  dataTimestamp: optionalVendorNumber,
});
export type SolisInverter = z.infer<typeof inverterSchema>;

export const alarmSchema = z.object({
  stationId: vendorId,
  stationName: looseString,
  alarmDeviceSn: looseString,
  alarmCode: looseString,
  alarmLevel: optionalVendorNumber,
  alarmBeginTime: optionalVendorNumber.pipe(z.number({ error: "alarmBeginTime is missing" })),
  alarmEndTime: optionalVendorNumber,
  /** Duration in ms (the doc example's alarmLong equals end minus begin). */
  alarmLong: optionalVendorNumber,
  alarmMsg: looseString,
  advice: looseString,
  state: optionalVendorNumber,
});
export type SolisAlarm = z.infer<typeof alarmSchema>;

/** One 5-minute row of `stationDay` (a station's day curve): power, and energy produced since local midnight. */
export const stationDayRowSchema = z.object({
  time: optionalVendorNumber,
  power: optionalVendorNumber,
  powerStr: looseString,
  powerPec: optionalVendorNumber,
  produceEnergy: optionalVendorNumber,
  produceEnergyStr: looseString,
});
export type SolisStationDayRow = z.infer<typeof stationDayRowSchema>;
