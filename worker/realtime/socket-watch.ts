import { frameOf, type LiveMessage } from "../../schema/live";
import type { LiveWatch } from "../../schema/live-client";

/**
 * Which systems a socket's screen shows, so each stored page sends it those systems' updates and
 * one `systems_updated` for the rest instead of every system: with 500 sockets open a 100-system
 * page was ~40 MB of frames (each socket's copy compressed on its own), now a few KB a socket.
 */

/**
 * A watch keeps the first 16 characters of each id (52 random bits of a UUID), so 60 ids fit the
 * socket's attachment; two ids sharing a prefix only send the socket one update more.
 */
const WATCH_KEY_CHARS = 16;
const watchKey = (id: string) => id.slice(0, WATCH_KEY_CHARS);

/** A watch as the socket's attachment keeps it. */
export interface StoredWatch {
  systemKeys: string[];
  siteKeys: string[];
}

export const storedWatchOf = (watch: LiveWatch): StoredWatch | null =>
  watch === null
    ? null
    : { systemKeys: watch.systemIds.map(watchKey), siteKeys: watch.siteIds.map(watchKey) };

/** Answers whether a socket watching `watch` wants a system's update (null watches everything). */
export type WatchFilter = ((systemId: string, siteId: string | null) => boolean) | null;

export function watchFilterOf(stored: StoredWatch | null | undefined): WatchFilter {
  if (!stored) return null;
  const systems = new Set(stored.systemKeys);
  const sites = new Set(stored.siteKeys);
  return (systemId, siteId) =>
    systems.has(watchKey(systemId)) || (siteId !== null && sites.has(watchKey(siteId)));
}

const isSystemUpdate = (
  message: LiveMessage,
): message is Extract<LiveMessage, { type: "solis_realtime_update" | "realtime_update" }> =>
  message.type === "solis_realtime_update" || message.type === "realtime_update";

/**
 * The frames of one publish, one per distinct selection: every socket watching everything shares
 * one serialisation, and so does every socket whose watch picks the same updates.
 */
export class PublishFrames {
  private readonly byPicked = new Map<string, { payload: string; messageCount: number }>();

  constructor(private readonly messages: LiveMessage[]) {}

  /** The frame for a socket with this filter, and how many messages it carries. */
  frameFor(filter: WatchFilter): { payload: string; messageCount: number } {
    const picked: number[] = [];
    let skipped = 0;
    this.messages.forEach((message, index) => {
      if (filter && isSystemUpdate(message) && !filter(message.data.systemId, message.data.siteId)) {
        skipped++;
      } else {
        picked.push(index);
      }
    });
    const key = picked.join(",");
    const cached = this.byPicked.get(key);
    if (cached) return cached;
    const sent: LiveMessage[] = picked.flatMap((index) => this.messages[index] ?? []);
    if (skipped > 0) sent.push({ type: "systems_updated", data: { count: skipped } });
    const frame = { payload: JSON.stringify(frameOf(sent)), messageCount: sent.length };
    this.byPicked.set(key, frame);
    return frame;
  }
}
