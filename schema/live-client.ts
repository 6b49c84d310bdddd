import { z } from "zod";
import { MAX_WATCHED_IDS } from "./live";

// Apart from schema/live.ts so the client, which only sends these, does not bundle their checks.

/**
 * What a socket sends to say which systems its screen shows: their ids and the sites whose
 * systems it shows (Site Management's live rows). Its frames then carry those systems' updates
 * and one `systems_updated` for the rest of each page; `null` (the default) watches everything.
 */
export const liveWatchSchema = z
  .object({
    systemIds: z.array(z.string().min(1).max(64)),
    siteIds: z.array(z.string().min(1).max(64)),
  })
  .refine((watch) => watch.systemIds.length + watch.siteIds.length <= MAX_WATCHED_IDS, {
    message: `Watch at most ${MAX_WATCHED_IDS} systems and sites; send null to watch everything`,
  })
  .nullable();
export type LiveWatch = z.infer<typeof liveWatchSchema>;

/** Messages a client may send besides the text `ping`. */
export const liveClientMessageSchema = z.object({ type: z.literal("watch"), data: liveWatchSchema });
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;
