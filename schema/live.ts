import { z } from "zod";
import { providerIdSchema, syncProgressSchema } from "./api/providers";

/** A system's state as a number: 1 online, 3 alarm, anything else (2) offline. */
export const liveStateSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

const liveInverterSchema = z.object({
  id: z.string(),
  sn: z.string().nullable(),
  state: liveStateSchema,
  /** Watts. */
  pac: z.number().nullable(),
  etodayKWh: z.number().nullable(),
  inverterTemperature: z.number().nullable(),
});

/**
 * One system's new live values after a sync. Solis's own field names are kept (pac, etoday,
 * etotal …) next to unit-named ones, with one meaning everywhere: power in W, energy in kWh for
 * the solis names and Wh for the unit-named ones, times as ISO strings of the vendor's data time.
 */
export const liveSystemUpdateSchema = z.object({
  systemId: z.string(),
  siteId: z.string().nullable(),
  provider: providerIdSchema,
  stationName: z.string(),
  stationId: z.string(),
  pac: z.number().nullable(),
  powerW: z.number().nullable(),
  etoday: z.number().nullable(),
  energyTodayWh: z.number().nullable(),
  etotal: z.number().nullable(),
  state: liveStateSchema,
  capacityW: z.number().nullable(),
  inverterCount: z.number(),
  inverters: z.array(liveInverterSchema),
  acOutputs: z.null(),
  dcInputs: z.null(),
  batteryPower: z.number().nullable(),
  batteryCapacity: z.number().nullable(),
  batterySoc: z.number().nullable(),
  inverterTemperature: z.number().nullable(),
  faultMessage: z.string().nullable(),
  alarmCode: z.string().nullable(),
  timestamp: z.string(),
});
export type LiveSystemUpdate = z.infer<typeof liveSystemUpdateSchema>;

/** Messages the server pushes over /ws; shared by the worker and the client. */
export const liveMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("connected"),
    data: z.object({ orgId: z.string(), serverTime: z.string() }),
  }),
  z.object({ type: z.literal("pong"), data: z.object({ serverTime: z.string() }) }),
  /** The message for solis systems (the name the client has always read). */
  z.object({ type: z.literal("solis_realtime_update"), data: liveSystemUpdateSchema }),
  /** The same normalised fields for every other provider. */
  z.object({ type: z.literal("realtime_update"), data: liveSystemUpdateSchema }),
  /** New or changed alerts: clients refresh their alert counts. */
  z.object({ type: z.literal("alerts_changed"), data: z.object({ openCount: z.number() }) }),
  /** A sync run moved (a unit stored) or ended. */
  z.object({ type: z.literal("sync_progress"), data: syncProgressSchema }),
  /**
   * Systems the socket does not watch got new values (`count` of them): screens read their
   * totals and order again. A socket that watches everything gets the updates instead.
   */
  z.object({ type: z.literal("systems_updated"), data: z.object({ count: z.number() }) }),
  /**
   * A watch was applied: the ids the socket now watches (null: everything). Only this answer says
   * so, because the runtime may hand a socket's messages over out of the order they were sent.
   */
  z.object({ type: z.literal("watching"), data: z.object({ count: z.number().nullable() }) }),
  /** A message the socket sent was not understood; nothing changed. */
  z.object({
    type: z.literal("error"),
    data: z.object({ code: z.literal("invalid_message"), message: z.string() }),
  }),
]);
export type LiveMessage = z.infer<typeof liveMessageSchema>;

/**
 * What one WebSocket frame carries: a message, or a `batch` of them in order. A stored page's
 * systems reach each socket as one frame: a page of 100 systems is 100 messages but one send per
 * socket, not 100 (50,000 sends a page with 500 sockets open).
 */
export const liveFrameSchema = z.union([
  liveMessageSchema,
  z.object({ type: z.literal("batch"), data: z.array(liveMessageSchema) }),
]);
export type LiveFrame = z.infer<typeof liveFrameSchema>;

/** The messages of a frame, in order. */
export const framedMessages = (frame: LiveFrame): LiveMessage[] =>
  frame.type === "batch" ? frame.data : [frame];

/** One frame for messages sent together: the message itself when alone. */
export const frameOf = (messages: LiveMessage[]): LiveFrame =>
  messages.length === 1 && messages[0] ? messages[0] : { type: "batch", data: messages };

/**
 * Ids a socket may watch at once: a dashboard page (50 systems) and the sites shown beside it.
 * The socket's hibernation attachment keeps them (at most 2 KB).
 */
export const MAX_WATCHED_IDS = 60;

/** The subprotocol the client offers next to its token; the server echoes it on accept. */
export const LIVE_SUBPROTOCOL = "sunfleet";

/** Close code sent when a user loses access (removed from the organisation). */
export const LIVE_CLOSE_ACCESS_REVOKED = 4001;
