import { z } from "zod";
import { siteLocationSources, systemStates } from "../domain";
import { systemOrientationSchema } from "./orientation";
import { providerIdSchema } from "./providers";

/** A plain decimal, as the site forms send numbers: "100.5", "-33.87", "1e3". */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number sent as a JSON number or as a numeric string (the site forms send latitude,
 * longitude and capacity as strings); anything else fails with "<label> must be a number".
 * `missing` is the message when the field is absent.
 */
export function numberInput(label: string, missing = `${label} is required`) {
  return z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined ? missing : `${label} must be a number`),
    })
    .transform((value, ctx) => {
      const number =
        typeof value === "number" ? value : DECIMAL.test(value.trim()) ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) {
        ctx.addIssue({ code: "custom", message: `${label} must be a number`, input: value });
        return z.NEVER;
      }
      return number;
    });
}

const VERIFY_FIRST = "Address verification required: Please search and verify the address location first";

export const latitudeInput = numberInput("Latitude", VERIFY_FIRST).pipe(
  z.number().min(-90, "Latitude must be between -90 and 90").max(90, "Latitude must be between -90 and 90"),
);
export const longitudeInput = numberInput("Longitude", VERIFY_FIRST).pipe(
  z
    .number()
    .min(-180, "Longitude must be between -180 and 180")
    .max(180, "Longitude must be between -180 and 180"),
);
/** kW; a site of 10 GW is a typo, not a site. */
export const capacityInput = numberInput("Capacity").pipe(
  z
    .number()
    .min(0, "Capacity must not be negative")
    .max(10_000_000, "Capacity must be at most 10,000,000 kW"),
);
export const tiltInput = numberInput("Tilt").pipe(
  z.number().min(0, "Tilt must be between 0 and 90 degrees").max(90, "Tilt must be between 0 and 90 degrees"),
);
export const azimuthInput = numberInput("Azimuth").pipe(
  z
    .number()
    .min(0, "Azimuth must be between 0 and 360 degrees")
    .max(360, "Azimuth must be between 0 and 360 degrees"),
);
export const acLimitInput = numberInput("AC limit").pipe(
  z
    .number()
    .positive("AC limit must be greater than 0")
    .max(10_000_000, "AC limit must be at most 10,000,000 kW"),
);
const yieldInput = numberInput("Estimated yield").pipe(
  z.number().min(0, "Estimated yield must not be negative").max(1e10, "Estimated yield is too large"),
);

const text = (max: number) => z.string().trim().max(max);
/** An optional text field: blank counts as absent (null). */
const optionalText = (max: number) =>
  text(max)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));
/** The same in an update: left out stays undefined (unchanged), blank or null clears it. */
const patchText = (max: number) =>
  text(max)
    .optional()
    .nullable()
    .transform((value) => (value === undefined ? undefined : value ? value : null));

/** Text that is required: absent or blank gets `missing`, another type says so. */
const requiredText = (max: number, label: string, missing: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? missing : `${label} must be text`) })
    .trim()
    .min(1, missing)
    .max(max, `${label} must be at most ${max} characters`);

const siteName = requiredText(120, "Name", "Name is required");
const siteAddress = requiredText(500, "Address", "Address required: Please enter an address to search for");

/**
 * The site creation payload. `capacity` (kW) is a manual DC capacity; left out (or 0) the
 * site's capacity follows its systems. tiltDeg, azimuthDeg and acLimitKw describe the array
 * for yield estimates.
 */
export const createSiteBodySchema = z.strictObject({
  name: siteName,
  address: siteAddress,
  /** The geocoder's formatted address. */
  location: optionalText(500),
  latitude: latitudeInput,
  longitude: longitudeInput,
  city: optionalText(120),
  state: optionalText(120),
  country: optionalText(120),
  capacity: capacityInput.optional().nullable(),
  /** Required: a new site has no system yet to take its provider from. */
  provider: providerIdSchema,
  /** kWh per year. */
  estimatedYield: yieldInput.optional().nullable(),
  tiltDeg: tiltInput.optional().nullable(),
  azimuthDeg: azimuthInput.optional().nullable(),
  acLimitKw: acLimitInput.optional().nullable(),
  isActive: z.boolean().optional(),
  /** A free label the site lists group and filter by (a client, an installer, a region). */
  label: optionalText(120),
});
export type CreateSiteBody = z.infer<typeof createSiteBodySchema>;
export type CreateSiteInput = z.input<typeof createSiteBodySchema>;

/** Any subset of the creation fields; null clears an optional one (capacity: null follows the systems again). */
export const updateSiteBodySchema = z
  .strictObject({
    name: siteName.optional(),
    address: siteAddress.optional(),
    location: patchText(500),
    latitude: latitudeInput.optional(),
    longitude: longitudeInput.optional(),
    city: patchText(120),
    state: patchText(120),
    country: patchText(120),
    capacity: capacityInput.optional().nullable(),
    provider: providerIdSchema.optional().nullable(),
    estimatedYield: yieldInput.optional().nullable(),
    tiltDeg: tiltInput.optional().nullable(),
    azimuthDeg: azimuthInput.optional().nullable(),
    acLimitKw: acLimitInput.optional().nullable(),
    isActive: z.boolean().optional(),
    label: patchText(120),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Nothing to update",
  });
export type UpdateSiteBody = z.infer<typeof updateSiteBodySchema>;
export type UpdateSiteInput = z.input<typeof updateSiteBodySchema>;

/**
 * Attaches one of the organisation's synced monitoring systems: by our id (`systemId`) or, as
 * the create-site wizard sends it, by provider and the provider's id. systemName, capacity and
 * systemType are accepted for the wizard's payload; the synced system's own values are kept.
 */
export const attachSystemBodySchema = z
  .strictObject({
    systemId: z.string().trim().min(1).max(64).optional(),
    provider: providerIdSchema.optional(),
    providerId: z.string().trim().min(1).max(128).optional(),
    systemName: text(200).optional(),
    capacity: capacityInput.optional().nullable(),
    systemType: text(64).optional(),
  })
  .refine(
    (body) => body.systemId !== undefined || (body.provider !== undefined && body.providerId !== undefined),
    {
      message: "Name the system: systemId, or provider and providerId",
      path: ["systemId"],
    },
  );
export type AttachSystemBody = z.infer<typeof attachSystemBodySchema>;
export type AttachSystemInput = z.input<typeof attachSystemBodySchema>;

export const siteSystemParamSchema = z.strictObject({
  id: z.string().min(1).max(64),
  systemId: z.string().min(1).max(64),
});

export const siteStatuses = ["online", "offline", "fault"] as const;
export type SiteStatus = (typeof siteStatuses)[number];

/** What kind of thing a monitoring system is: every synced system is a PV plant with its inverters. */
export const SYSTEM_TYPE = "pv";

/** A site as the site list shows it. */
export const siteSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  /** The formatted address, else the address as typed. */
  location: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  /** IANA time zone derived from the coordinates. */
  timezone: z.string(),
  /** Where the place came from: a verified address, the vendor's coordinates, or the vendor's address geocoded. */
  locationSource: z.enum(siteLocationSources),
  /** The provider chosen at creation, else that of the first system; null for an empty site. */
  provider: providerIdSchema.nullable(),
  /** Distinct providers of the attached systems. */
  providers: z.array(providerIdSchema),
  /** kW DC: the manual capacity if set, else the sum of the systems' capacities. */
  capacity: z.number(),
  capacitySource: z.enum(["manual", "systems"]),
  /** kW, or null when not set. */
  acLimitKw: z.number().nullable(),
  tiltDeg: z.number().nullable(),
  azimuthDeg: z.number().nullable(),
  /** kWh per year, as accepted at creation. */
  estimatedYield: z.number().nullable(),
  /**
   * fault: a system reports an alarm; online: a system reports fresh data (in daylight, data
   * older than 30 minutes counts as offline); offline otherwise, or without systems.
   */
  status: z.enum(siteStatuses),
  /** W, summed over systems with fresh data. */
  currentPower: z.number(),
  /** Wh generated since local midnight at the site. */
  todayGeneration: z.number(),
  /** ISO time of the newest system data, or null. */
  lastUpdate: z.string().nullable(),
  isActive: z.boolean(),
  /** A free label the site lists group and filter by (a client, an installer, a region); null when none. */
  label: z.string().nullable(),
  systemCount: z.number(),
  onlineSystemCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

/** A monitoring system under a site (the client's field names) with its live values. */
export const siteSystemSchema = z.object({
  id: z.string(),
  systemName: z.string(),
  provider: providerIdSchema,
  /** The provider's own id for the system. */
  providerId: z.string(),
  /** kW DC, or null when the provider does not report it. */
  capacity: z.number().nullable(),
  systemType: z.string(),
  state: z.enum(systemStates),
  /** The state after the freshness rule: online data older than 30 minutes in daylight is offline. */
  status: z.enum(systemStates),
  currentPowerW: z.number().nullable(),
  todayEnergyWh: z.number().nullable(),
  /** ISO vendor data time of the live values. */
  dataTime: z.string().nullable(),
  inverterCount: z.number(),
  /** Tilt, azimuth and AC limit as set on the system and as the expected-energy model uses them. */
  orientation: systemOrientationSchema,
});
export type SiteSystem = z.infer<typeof siteSystemSchema>;

export const enhancedSiteSchema = siteSchema.extend({
  /** kW: the same as `capacity`. */
  totalCapacity: z.number(),
  systems: z.array(siteSystemSchema),
});
export type EnhancedSite = z.infer<typeof enhancedSiteSchema>;

/** A synced monitoring system not attached to any site. */
export const availableSystemSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: providerIdSchema,
  providerId: z.string(),
  /** kW DC, or null when the provider does not report it. */
  capacity: z.number().nullable(),
  type: z.string(),
  /** The provider's address for the system, or null. */
  location: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  state: z.enum(systemStates),
  currentPowerW: z.number().nullable(),
  dataTime: z.string().nullable(),
});
export type AvailableSystem = z.infer<typeof availableSystemSchema>;

export const siteDeletedSchema = z.object({ message: z.string(), releasedSystemIds: z.array(z.string()) });
export type SiteDeleted = z.infer<typeof siteDeletedSchema>;

const systemIdList = z.array(z.string().trim().min(1).max(64)).min(1).max(500);
const siteIdList = z.array(z.string().trim().min(1).max(64)).min(1).max(100);

/** Sites for plants: the given ones, or every plant attached to no site. */
export const sitesFromSystemsBodySchema = z.strictObject({ systemIds: systemIdList.optional() });
export type SitesFromSystemsBody = z.infer<typeof sitesFromSystemsBodySchema>;

export const plantSkipReasons = [
  "not_available",
  "no_location",
  "address_not_found",
  "geocoder_unavailable",
] as const;

export const sitesFromSystemsSchema = z.object({
  /** How many sites were made. */
  created: z.number(),
  sites: z.array(enhancedSiteSchema),
  /** Plants that got no site, with why. */
  skipped: z.array(z.object({ systemId: z.string(), reason: z.enum(plantSkipReasons) })),
});
export type SitesFromSystems = z.infer<typeof sitesFromSystemsSchema>;

/** Moves every system of the listed sites into this one; the listed sites are then removed. */
export const mergeSitesBodySchema = z.strictObject({ siteIds: siteIdList });
export type MergeSitesBody = z.infer<typeof mergeSitesBodySchema>;

/** Gives each listed system (default: every system but the first) a site of its own. */
export const splitSiteBodySchema = z.strictObject({ systemIds: systemIdList.optional() });
export type SplitSiteBody = z.infer<typeof splitSiteBodySchema>;

export const splitSiteSchema = z.object({ site: enhancedSiteSchema, sites: z.array(enhancedSiteSchema) });
export type SplitSite = z.infer<typeof splitSiteSchema>;

/** `POST /api/sites/{id}/systems`: 201 when the system joined the site, 200 when it was there already. */
export const systemAttachedSchema = z.object({
  message: z.string(),
  /** False when the system was already on this site (nothing changed). */
  attached: z.boolean(),
  system: siteSystemSchema,
  site: enhancedSiteSchema,
});
export type SystemAttached = z.infer<typeof systemAttachedSchema>;

/** `DELETE /api/sites/{id}/systems/{systemId}`: the site without the system. */
export const systemDetachedSchema = z.object({ message: z.string(), site: enhancedSiteSchema });
export type SystemDetached = z.infer<typeof systemDetachedSchema>;
