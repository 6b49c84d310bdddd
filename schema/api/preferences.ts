import { z } from "zod";
import { languages } from "../domain";

export const languageSchema = z.enum(languages);

export const preferencesSchema = z.object({
  monthlyReports: z.boolean(),
  weeklyDigest: z.boolean(),
  realtimeAlerts: z.boolean(),
  timezone: z.string(),
  language: languageSchema,
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  monthlyReports: true,
  weeklyDigest: true,
  realtimeAlerts: true,
  timezone: "UTC",
  language: "en",
};

/** The client sends the full object with the changed field; any subset is accepted. */
export const preferencesPatchSchema = z
  .strictObject({
    monthlyReports: z.boolean(),
    weeklyDigest: z.boolean(),
    realtimeAlerts: z.boolean(),
    timezone: z.string().min(1).max(64),
    language: languageSchema,
  })
  .partial();
export type PreferencesPatch = z.infer<typeof preferencesPatchSchema>;

export const timezoneSchema = z.object({
  value: z.string(),
  label: z.string(),
  /** "UTC+05:30" style, at the time of the request. */
  offset: z.string(),
  region: z.string(),
});
export type Timezone = z.infer<typeof timezoneSchema>;
