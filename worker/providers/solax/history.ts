import { DateTime } from "luxon";
import type { HistoryRequest, ProviderCallContext, ProviderHistoryDay } from "../types";
import type { SolaxOpenApiCredentials } from "./credentials";
import { kWhToWh, utcMillis } from "./normalise";
import { SolaxOpenApiClient } from "./openapi-client";
import { deviceRecordSchema, realtimeResultSchema } from "./schemas";

const BUSINESS_TYPES = ["1", "4"] as const;
const INVERTER = "1";
/** history_data answers windows of at most about 11 hours; a day is read in three. */
const WINDOWS_PER_DAY = 3;
const SN_BATCH = 10;

/** Calls one plant-day costs: its inverter list (per business type, at most two) and three windows per 10 inverters. */
export const SOLAX_HISTORY_CALLS_PER_DAY = 2 + WINDOWS_PER_DAY;

/**
 * One plant's plant-local day from the Developer OpenAPI's `device/history_data`: the plant's
 * inverters (page_device_info by plant, residential first, then commercial), then their 5-minute
 * rows in three windows of a third of the day each (8 hours; 7:40 or 8:20 on DST days), 10
 * inverters per call. The plant's point at a time is the sum of its inverters' rows.
 */
export async function fetchSolaxHistory(
  ctx: ProviderCallContext,
  credentials: SolaxOpenApiCredentials,
  request: HistoryRequest,
): Promise<ProviderHistoryDay> {
  const client = new SolaxOpenApiClient(ctx, credentials);
  let serials: string[] = [];
  let businessType: string = BUSINESS_TYPES[0];
  for (const type of BUSINESS_TYPES) {
    const devices = await client.records(
      "/openapi/v2/device/page_device_info",
      { plantId: request.providerSystemId, businessType: type, deviceType: INVERTER },
      deviceRecordSchema,
      `the inverters of plant ${request.providerSystemId}`,
    );
    if (devices.length > 0) {
      serials = [...new Set(devices.map((device) => device.deviceSn))];
      businessType = type;
      break;
    }
  }
  if (serials.length === 0) return { systemPoints: [], dailyEnergyWh: null };

  const day = DateTime.fromISO(request.date, { zone: request.timezone });
  const [startMs, endMs] = [day.toMillis(), day.plus({ days: 1 }).toMillis()];
  const windowMs = Math.ceil((endMs - startMs) / WINDOWS_PER_DAY);
  const byTime = new Map<number, { powerW: number | null; energyTodayWh: number | null }>();
  const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);
  for (let from = startMs; from < endMs; from += windowMs) {
    const to = Math.min(endMs, from + windowMs);
    for (let i = 0; i < serials.length; i += SN_BATCH) {
      const rows = await client.get(
        "/openapi/v2/device/history_data",
        {
          snList: serials.slice(i, i + SN_BATCH).join(","),
          deviceType: INVERTER,
          businessType,
          startTime: String(from),
          endTime: String(to),
        },
        realtimeResultSchema,
        `the history of plant ${request.providerSystemId}`,
      );
      for (const row of rows) {
        const time = utcMillis(row.dataTime);
        if (time === null || time < from || time >= to) continue;
        const current = byTime.get(time) ?? { powerW: null, energyTodayWh: null };
        byTime.set(time, {
          powerW: add(
            current.powerW,
            row.totalActivePower === null ? null : Math.round(row.totalActivePower),
          ),
          energyTodayWh: add(current.energyTodayWh, kWhToWh(row.dailyYield ?? row.dailyACOutput ?? null)),
        });
      }
    }
  }
  const systemPoints = [...byTime]
    .map(([time, values]) => ({ time, ...values }))
    .sort((a, b) => a.time - b.time);
  const energies = systemPoints.map((p) => p.energyTodayWh).filter((e): e is number => e !== null);
  return { systemPoints, dailyEnergyWh: energies.length > 0 ? Math.max(...energies) : null };
}
