import { z } from "zod";

/** What one organisation's fleet store may hold unless FLEET_STORE_BOUND_BYTES says otherwise: a Durable Object's 10 GB. */
export const DEFAULT_FLEET_STORE_BOUND_BYTES = 10 * 1024 ** 3;
/** The share of its bound at which a store tells the platform operator. */
export const FLEET_STORE_WARNING_SHARE = 0.7;

/** One fleet store as it last reported its size, against what one store may hold. */
export const fleetStoreSizeSchema = z.object({
  orgId: z.string(),
  /** Which of the organisation's store objects: 0 its own, 1.. the shards a large fleet is split over. */
  shard: z.number().int(),
  organizationName: z.string(),
  bytes: z.number(),
  boundBytes: z.number(),
  /** bytes / boundBytes, 0-1 (past 1 the store is over its bound). */
  share: z.number(),
  /** At or past 70 % of the bound: the store needs splitting or its retention shortening. */
  nearBound: z.boolean(),
  reportedAt: z.string(),
  /** When it passed 70 %; null while below it. */
  overSince: z.string().nullable(),
});
export type FleetStoreSize = z.infer<typeof fleetStoreSizeSchema>;

export const fleetStoreSizesSchema = z.object({
  /** The share of its bound at which a store is reported near it. */
  threshold: z.number(),
  stores: z.array(fleetStoreSizeSchema),
});
export type FleetStoreSizes = z.infer<typeof fleetStoreSizesSchema>;
