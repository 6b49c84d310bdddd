import { z } from "zod";

const address = z
  .string({ error: "Address required: Please enter an address to search for" })
  .trim()
  .min(1, "Address required: Please enter an address to search for")
  .max(300, "Address must be at most 300 characters");

/** ISO 3166-1 alpha-2 codes, comma-separated (e.g. US, GB, AU); blank means any. */
const country = z
  .string()
  .trim()
  .regex(/^([A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*)?$/, "Country must be a two-letter code such as US, GB or AU")
  .optional()
  .transform((value) => (value ? value.replace(/\s+/g, "").toLowerCase() : undefined));

export const geocodeBodySchema = z.strictObject({ address, country });
export type GeocodeBody = z.infer<typeof geocodeBodySchema>;

export const geocodeQuerySchema = z.strictObject({ address, country });

export const geocodeResultSchema = z.object({
  formattedAddress: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  /** Country name as the geocoder writes it. */
  country: z.string().nullable(),
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: z.string().nullable(),
  postcode: z.string().nullable(),
});
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;

export const geocodeSearchSchema = z.object({ results: z.array(geocodeResultSchema) });
export type GeocodeSearch = z.infer<typeof geocodeSearchSchema>;
