import { DateTime } from "luxon";
import type { HistoryRequest, ProviderHistoryDay } from "../types";
import type { FroniusClient } from "./client";
import { channel, exactEnergyWh, utcMillis } from "./normalise";
import { histDataResponseSchema } from "./schemas";

const BUCKET_S = 300;

/**
 * One PV system's plant-local day from `histdata` (one call: the day as a UTC window, the
 * EnergyProductionTotal channel, billed per value). Solar.web gives energy per 5-minute bucket,
 * never power: a point sits at its bucket's start with the bucket's mean power,
 * and energy-today is what the buckets before it produced, as a live counter reads at that time.
 */
export async function fetchFroniusHistory(
  client: FroniusClient,
  request: HistoryRequest,
): Promise<ProviderHistoryDay> {
  const day = DateTime.fromISO(request.date, { zone: request.timezone });
  const zulu = (at: DateTime) => at.toUTC().toISO({ suppressMilliseconds: true }) ?? "";
  const answer = await client.get(
    `/pvsystems/${encodeURIComponent(request.providerSystemId)}/histdata`,
    { from: zulu(day), to: zulu(day.plus({ days: 1 })), channel: "EnergyProductionTotal" },
    histDataResponseSchema,
    "histdata",
  );
  const buckets = answer.data
    .map((row) => {
      const closedAt = utcMillis(row.logDateTime);
      const durationS = row.logDuration && row.logDuration > 0 ? row.logDuration : BUCKET_S;
      return {
        // 299 or 300 s: the bucket starts on the minute.
        start: closedAt === null ? null : Math.round((closedAt - durationS * 1000) / 60_000) * 60_000,
        durationS,
        energyWh: exactEnergyWh(channel(row.channels, "EnergyProductionTotal")),
      };
    })
    .filter((bucket): bucket is typeof bucket & { start: number } => bucket.start !== null)
    .sort((a, b) => a.start - b.start);
  let producedWh = 0;
  const systemPoints = buckets.map((bucket) => {
    const point = {
      time: bucket.start,
      powerW: bucket.energyWh === null ? null : Math.round((bucket.energyWh * 3600) / bucket.durationS),
      energyTodayWh: Math.round(producedWh),
    };
    producedWh += bucket.energyWh ?? 0;
    return point;
  });
  return { systemPoints, dailyEnergyWh: buckets.length > 0 ? Math.round(producedWh) : null };
}
