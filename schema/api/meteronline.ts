import { z } from "zod";

/** The largest CSV export accepted in one import. */
export const METERONLINE_MAX_CSV_BYTES = 2 * 1024 * 1024;

const column = z.string().trim().min(1).max(120);

export const meteronlineImportBodySchema = z.strictObject({
  csv: z.string().min(1, { error: "The CSV file is empty" }).max(METERONLINE_MAX_CSV_BYTES),
  mapping: z.strictObject({
    /** Column holding the reading's date and time. */
    timestamp: column,
    /** Column identifying the system (installation id or name). */
    system: column,
    /** Optional column with a display name for the system. */
    systemName: column.optional(),
    power: column.optional(),
    energy: column.optional(),
  }),
  units: z
    .strictObject({
      power: z.enum(["W", "kW"]).default("kW"),
      energy: z.enum(["Wh", "kWh"]).default("kWh"),
    })
    .default({ power: "kW", energy: "kWh" }),
  /** IANA zone of timestamps written without an offset. */
  timezone: z.string().min(1).max(64).default("Europe/Amsterdam"),
});
export type MeteronlineImportBody = z.infer<typeof meteronlineImportBodySchema>;

export const meteronlineImportResultSchema = z.object({
  message: z.string(),
  rowsRead: z.number(),
  readingsImported: z.number(),
  systems: z.number(),
  errors: z.array(z.object({ row: z.number(), error: z.string() })),
});
export type MeteronlineImportResult = z.infer<typeof meteronlineImportResultSchema>;
