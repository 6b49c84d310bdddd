import type { CallLimit } from "../budget";
import { ProviderError } from "../errors";
import { vendorText } from "../redact";
import type { NormalisedAlarm, NormalisedSystem, ProviderCallContext, ProviderSnapshot } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import type { SolaxTokenCredentials } from "./credentials";
import { FAULT_STATUSES, inverterState, kWhToWh, localMillis, statusLabel, utcMillis } from "./normalise";
import { type SolaxTokenRealtime, tokenEnvelopeSchema, tokenRealtimeSchema } from "./schemas";

/**
 * "Lower than 10 times/min and 10,000 times/day" per token: at most 9 calls in
 * any minute (one per 7 s) and at most 10,000 in any day (9,000 a day steady plus a burst of 1,000).
 */
export const TOKEN_API_LIMITS: CallLimit[] = [
  { intervalMs: 7000, burst: 1 },
  { intervalMs: 9600, burst: 1000 },
];
/** "…the system will prohibit calls within the next hour". */
const BAN_MS = 60 * 60 * 1000;
/** How long a connection whose token answered v2 with a refusal stays on v1 before trying v2 again. */
const V1_REMEMBER_MS = 24 * 60 * 60 * 1000;

const V2_PATH = "/api/v2/dataAccess/realtimeInfo/get";
const V1_PATH = "/proxyApp/proxy/api/getRealtimeInfo.do";

/** The dongle is not reachable with this token: asking v1 instead would not help. */
class DongleNotAccessible extends ProviderError {
  constructor(message: string) {
    super("invalid_request", message);
  }
}

type Version = "v1" | "v2";

/** Reads the token API's envelope: vendor codes and sentences become ProviderErrors. */
function realtimeFrom(body: unknown, wifiSn: string, version: Version): SolaxTokenRealtime {
  const envelope = parseVendorAnswer(
    tokenEnvelopeSchema,
    body,
    "SolaX",
    `the realtime data of dongle ${wifiSn}`,
  );
  const exception = vendorText(envelope.exception);
  if (/violation|prohibit/i.test(exception)) {
    throw new ProviderError(
      "rate_limited",
      "SolaX Cloud blocks this token for an hour after calls above 10 a minute",
      BAN_MS,
    );
  }
  if (envelope.code === 1001 || envelope.code === 103) {
    throw new ProviderError(
      "auth",
      `SolaX Cloud rejected the token ID (${exception || `code ${envelope.code}`})`,
    );
  }
  if (envelope.code === 1003) {
    throw new DongleNotAccessible(`Dongle ${wifiSn} is not in this token's SolaX Cloud account`);
  }
  if (typeof envelope.result === "string") {
    throw new DongleNotAccessible(
      `SolaX Cloud answered "${vendorText(envelope.result)}" for dongle ${wifiSn}: check its registration number and the token`,
    );
  }
  if (envelope.success === false || (envelope.code !== null && envelope.code !== 0)) {
    throw new ProviderError(
      "invalid_request",
      `SolaX Cloud (${version}) refused the request for dongle ${wifiSn}: ${exception || "no reason given"}${
        envelope.code !== null ? ` (code ${envelope.code})` : ""
      }`,
    );
  }
  if (envelope.result === null || envelope.result === undefined) {
    throw new ProviderError("malformed", `SolaX Cloud answered without data for dongle ${wifiSn}`);
  }
  return parseVendorAnswer(
    tokenRealtimeSchema,
    envelope.result,
    "SolaX",
    `the realtime data of dongle ${wifiSn}`,
  );
}

/** v2 first; v1 when v2 is refused or broken (not for auth, rate limits, timeouts or foreign dongles). */
const fallsBackToV1 = (error: unknown) =>
  error instanceof ProviderError &&
  !(error instanceof DongleNotAccessible) &&
  (error.kind === "invalid_request" || error.kind === "malformed" || error.kind === "unavailable");

class TokenClient {
  private version: Version = "v2";

  constructor(
    private readonly ctx: ProviderCallContext,
    private readonly credentials: SolaxTokenCredentials,
  ) {
    const session = ctx.session.get();
    const until = session?.solaxV1Until;
    if (typeof until === "number" && until > ctx.now()) this.version = "v1";
  }

  async realtime(wifiSn: string): Promise<SolaxTokenRealtime> {
    if (this.version === "v2") {
      try {
        return await this.v2(wifiSn);
      } catch (error) {
        if (!fallsBackToV1(error)) throw error;
        // A refusal (HTTP 404 and the like) means this account has no v2: stay on v1 for a while.
        if (error instanceof ProviderError && error.kind === "invalid_request") this.rememberV1();
      }
    }
    return this.v1(wifiSn);
  }

  private rememberV1() {
    this.version = "v1";
    this.ctx.session.set({
      ...(this.ctx.session.get() ?? {}),
      solaxV1Until: this.ctx.now() + V1_REMEMBER_MS,
    });
  }

  private async v2(wifiSn: string) {
    const body = await this.ctx.http.json({
      method: "POST",
      url: `${this.ctx.urls.solax}${V2_PATH}`,
      headers: { tokenId: this.credentials.tokenId, "Content-Type": "application/json" },
      body: JSON.stringify({ wifiSn }),
    });
    return realtimeFrom(body, wifiSn, "v2");
  }

  private async v1(wifiSn: string) {
    const query = new URLSearchParams({ tokenId: this.credentials.tokenId, sn: wifiSn });
    const body = await this.ctx.http.json({ url: `${this.ctx.urls.solax}${V1_PATH}?${query}` });
    return realtimeFrom(body, wifiSn, "v1");
  }
}

/**
 * One dongle is one system with one inverter: the token API has no site list. v2's utcDateTime
 * is the data time; v1 only has uploadTime, local without an offset, read in the connection's
 * time zone when one is set and otherwise left unknown (null) rather than guessed.
 */
function toSystem(
  wifiSn: string,
  realtime: SolaxTokenRealtime,
  credentials: SolaxTokenCredentials,
  now: number,
): { system: NormalisedSystem; alarm: NormalisedAlarm | null } {
  const dataTime = utcMillis(realtime.utcDateTime) ?? localMillis(realtime.uploadTime, credentials.timezone);
  const powerW = realtime.acpower === null ? null : Math.round(realtime.acpower);
  const energyTotalWh = kWhToWh(realtime.yieldtotal);
  let energyTodayWh = kWhToWh(realtime.yieldtoday);
  // Public samples show implausible yieldtoday values; one above the lifetime total is dropped.
  if (energyTodayWh !== null && energyTotalWh !== null && energyTodayWh > energyTotalWh) energyTodayWh = null;
  const status = realtime.inverterStatus;
  const state = inverterState(status, powerW);
  const serial = realtime.inverterSN;
  const alarm: NormalisedAlarm | null =
    status !== null && FAULT_STATUSES.has(status)
      ? {
          // One open alarm per dongle and fault status, so repeated syncs update it.
          providerAlarmId: `${wifiSn}:inverterStatus:${status}`,
          providerSystemId: wifiSn,
          deviceSerial: serial,
          code: status,
          title: status === "104" ? "Permanent inverter fault" : "Inverter fault",
          message: `SolaX Cloud reports inverter ${serial ?? wifiSn} in status ${status} (${statusLabel(status)})`,
          severity: "critical",
          startedAt: dataTime ?? now,
          endedAt: null,
        }
      : null;
  return {
    alarm,
    system: {
      providerSystemId: wifiSn,
      name: `SolaX ${wifiSn}`,
      address: null,
      latitude: null,
      longitude: null,
      timezone: credentials.timezone,
      capacityW: null,
      state,
      powerW,
      energyTodayWh,
      energyTotalWh,
      dataTime,
      inverters: [
        {
          providerInverterId: serial ?? wifiSn,
          serial,
          model: null,
          ratedPowerW: null,
          state,
          powerW,
          energyTodayWh,
          energyTotalWh,
          temperatureC: realtime.temperature,
          dataTime,
        },
      ],
    },
  };
}

/** Every dongle is asked once, so a mistyped registration number shows up at once. */
export async function testTokenConnection(ctx: ProviderCallContext, credentials: SolaxTokenCredentials) {
  const client = new TokenClient(ctx, credentials);
  for (const wifiSn of credentials.wifiSns) await client.realtime(wifiSn);
  return { sitesFound: credentials.wifiSns.length };
}

export async function fetchTokenSnapshot(
  ctx: ProviderCallContext,
  credentials: SolaxTokenCredentials,
): Promise<ProviderSnapshot> {
  const client = new TokenClient(ctx, credentials);
  const now = ctx.now();
  const systems: NormalisedSystem[] = [];
  const alarms: NormalisedAlarm[] = [];
  for (const wifiSn of credentials.wifiSns) {
    const read = toSystem(wifiSn, await client.realtime(wifiSn), credentials, now);
    systems.push(read.system);
    if (read.alarm) alarms.push(read.alarm);
  }
  // Alarms are derived from the inverter status, so the list is complete: cleared faults drop out.
  return { systems, alarms };
}
