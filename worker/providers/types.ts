import type { z } from "zod";
import type { CredentialField, ProviderId } from "../../schema/api/providers";
import type { AlertSeverity, SystemState } from "../../schema/domain";
import type { CallPlan } from "./budget";
import type { ProviderHttp } from "./http";
import type { ProviderUrls } from "./urls";

/** A system's state; on the wire it is numeric: 1 online, 3 alarm, anything else offline (docs/product.md). */
export type { AlertSeverity, SystemState };

/** Units are the product's: W, Wh, epoch milliseconds UTC, IANA zones. */
export interface NormalisedInverter {
  providerInverterId: string;
  serial: string | null;
  model: string | null;
  ratedPowerW: number | null;
  state: SystemState;
  powerW: number | null;
  energyTodayWh: number | null;
  energyTotalWh: number | null;
  temperatureC: number | null;
  /** The vendor's own data time, not when we fetched it. */
  dataTime: number | null;
}

export interface NormalisedSystem {
  providerSystemId: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  capacityW: number | null;
  /** The vendor's grouping its live calls need beside the id (SolaX's business type); absent elsewhere. */
  providerGroup?: string | null;
  state: SystemState;
  powerW: number | null;
  energyTodayWh: number | null;
  energyTotalWh: number | null;
  dataTime: number | null;
  inverters: NormalisedInverter[];
}

/** An inverter as the last read of the device lists stored it. */
export type KnownInverter = Pick<
  NormalisedInverter,
  "providerInverterId" | "serial" | "model" | "ratedPowerW"
>;

/**
 * A plant as the last read of the plant and device lists stored it (D1 metadata): what a steady
 * cycle reads live values for, without asking the vendor's lists again.
 */
export interface KnownSystem
  extends Pick<
    NormalisedSystem,
    | "providerSystemId"
    | "name"
    | "address"
    | "latitude"
    | "longitude"
    | "timezone"
    | "capacityW"
    | "providerGroup"
  > {
  inverters: KnownInverter[];
}

export interface NormalisedAlarm {
  /** Stable per vendor alarm, so repeated syncs update rather than duplicate. */
  providerAlarmId: string;
  providerSystemId: string;
  deviceSerial: string | null;
  code: string | null;
  title: string;
  message: string;
  severity: AlertSeverity;
  startedAt: number;
  /** Set once the vendor reports the alarm cleared. */
  endedAt: number | null;
}

export interface ProviderSnapshot {
  systems: NormalisedSystem[];
  /** Null when the vendor has no alarm source: open alerts are then left as they are. */
  alarms: NormalisedAlarm[] | null;
}

/**
 * One unit of a sync: what one small piece of the vendor's account gave (a list page, a batch of
 * plants), stored before the next is asked for.
 */
export interface SyncPage extends ProviderSnapshot {
  /** Where the next unit starts (adapter-private JSON text); null when this was the last. */
  nextCursor: string | null;
  /** Vendor pages (or plant batches) this unit read, and how many the run has in all once known. */
  pagesRead: number;
  totalPages: number | null;
}

/** One plant-local day of one plant, as a history unit asks for it. */
export interface HistoryRequest {
  providerSystemId: string;
  /** Plant-local YYYY-MM-DD. */
  date: string;
  /** The plant's IANA zone, the day is counted in (23 or 25 hours on DST days). */
  timezone: string;
}

/** A plant's past values at one vendor data time (W, Wh since local midnight, epoch ms). */
export interface HistoryDayPoint {
  time: number;
  powerW: number | null;
  energyTodayWh: number | null;
}

/** What a vendor's history endpoints give for one plant and day. */
export interface ProviderHistoryDay {
  /** The day's 5-minute points, oldest first. */
  systemPoints: HistoryDayPoint[];
  /** The vendor's own total for the day, when it has one. */
  dailyEnergyWh: number | null;
}

/** Vendor base URLs from the environment, with the vendors' production hosts as defaults. */
export type { ProviderUrls };

/** Tokens a provider caches between syncs (OAuth access tokens), stored encrypted. */
export interface ProviderSession {
  get(): Record<string, unknown> | null;
  set(value: Record<string, unknown> | null): void;
}

export interface ProviderCallContext {
  http: ProviderHttp;
  urls: ProviderUrls;
  now: () => number;
  session: ProviderSession;
}

/** What the product lists and the credential form is built from. */
export interface ProviderDefinition {
  id: ProviderId;
  displayName: string;
  description: string;
  ingestion: "api" | "csv-import";
  fields: CredentialField[];
}

export interface ProviderAdapter<Credentials = unknown> extends ProviderDefinition {
  /** Validates the form values and turns them into typed credentials. */
  credentialsSchema: z.ZodType<Credentials>;
  /**
   * How calls with these credentials are budgeted: the vendor's documented limits with a safety
   * margin, keyed by what identifies the credential (research/providers.md, rate-limit addendum).
   */
  callPlan(credentials: Credentials): CallPlan;
  /**
   * Optional: refuses credentials that would send calls somewhere they must not go (a user-given
   * API URL that is not the vendor's), with a message for the user. Checked before saving or
   * testing; the adapter checks again before every call.
   */
  outboundProblem?(credentials: Credentials, urls: ProviderUrls): string | null;
  /** Proves the credentials work with as few calls as possible; reads no data points it need not. */
  testConnection(ctx: ProviderCallContext, credentials: Credentials): Promise<{ sitesFound: number }>;
  /**
   * One unit of a sync, from `cursor` (null for the first): systems with inverters and live
   * values, and alarms. Each unit stays small (one vendor page or a batch of plants) so it fits one
   * invocation and is stored before the next is asked for.
   *
   * `known` is null when the run reads the vendor's plant and device lists (daily, a new
   * connection, a user's sync); otherwise it holds the plants those lists gave, and the unit reads
   * only their live values. A vendor whose lists are its live values (SolisCloud) may read them
   * anyway. A vendor answer showing `known` out of date (a plant it no longer knows) is thrown
   * as a StaleListsError.
   */
  syncPage(
    ctx: ProviderCallContext,
    credentials: Credentials,
    cursor: string | null,
    known: KnownSystem[] | null,
  ): Promise<SyncPage>;
  /**
   * One plant-local day of one plant's past from the vendor's history endpoints (a backfill
   * unit), or null when these credentials reach no history source.
   */
  fetchHistory(
    ctx: ProviderCallContext,
    credentials: Credentials,
    request: HistoryRequest,
  ): Promise<ProviderHistoryDay | null>;
  /** Vendor calls one fetchHistory makes at most (0 without a history source): what a backfill plan costs. */
  historyCallsPerDay(credentials: Credentials): number;
}
