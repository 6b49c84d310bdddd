import { z } from "zod";

/** Messages the server pushes over /ws; shared by the worker and the client. */
export const liveMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("connected"),
    data: z.object({ orgId: z.string(), serverTime: z.string() }),
  }),
  z.object({ type: z.literal("pong"), data: z.object({ serverTime: z.string() }) }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;

/** The subprotocol the client offers next to its token; the server echoes it on accept. */
export const LIVE_SUBPROTOCOL = "sunfleet";

/** Close code sent when a user loses access (removed from the organisation). */
export const LIVE_CLOSE_ACCESS_REVOKED = 4001;
