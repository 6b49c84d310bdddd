import { z } from "zod";
import type { ProviderSession } from "../types";

/**
 * What SMA syncs keep between runs, stored encrypted with the connection: the 5-minute access
 * token, whether the owner already approved, which plants offer no plant-level PV set (found when
 * the lists are read) and which of their devices offer PV measurements (asked once a day rather
 * than on every sync, to spare the per-credential call budget).
 */
const smaSessionSchema = z.object({
  clientId: z.string(),
  accessToken: z.string().optional(),
  accessTokenExpiresAt: z.number().optional(),
  /** The owner e-mail (lower case) whose consent SMA reported as accepted. */
  consentAcceptedFor: z.string().optional(),
  pvSetByDevice: z.record(z.string(), z.boolean()).optional(),
  setsCheckedAt: z.number().optional(),
  plantsWithoutPvSet: z.array(z.string()).optional(),
});
export type SmaSession = z.infer<typeof smaSessionSchema>;

/** The stored session for this client, or a fresh one when it is missing, unreadable or another client's. */
export function readSmaSession(session: ProviderSession, clientId: string): SmaSession {
  const parsed = smaSessionSchema.safeParse(session.get());
  return parsed.success && parsed.data.clientId === clientId ? parsed.data : { clientId };
}

export function writeSmaSession(session: ProviderSession, value: SmaSession): void {
  session.set(structuredClone(value));
}
