import type { HistoryDayPoint, HistoryRequest, ProviderCallContext, ProviderHistoryDay } from "../types";
import type { SmaClient } from "./client";
import { assertKnownZone, BUCKET_MINUTES, plantLocalTimesToUtcMs } from "./normalise";

/**
 * One plant's plant-local day from its `EnergyAndPowerPv/Day` data set with energy values (one
 * call per plant and day; research addendum: "the natural unit for both live catch-up and
 * backfill"). SMA gives Wh per 5-minute bucket at plant-local times: a point sits at its bucket's
 * start with the bucket's mean power, and energy-today is what the buckets before it produced.
 */
export async function fetchSmaHistory(
  ctx: Pick<ProviderCallContext, "now">,
  client: SmaClient,
  request: HistoryRequest,
): Promise<ProviderHistoryDay> {
  assertKnownZone(request.timezone, request.providerSystemId);
  await client.ensureConsent({ recheck: false });
  const series = await client.plantDayPvEnergy(request.providerSystemId, request.date);
  client.save();
  const nowMs = ctx.now();
  const times = plantLocalTimesToUtcMs(
    series.set.map((bucket) => bucket.time),
    request.timezone,
    nowMs,
  );
  const bucketHours = (BUCKET_MINUTES[series.resolution ?? ""] ?? 5) / 60;
  let producedWh = 0;
  const systemPoints: HistoryDayPoint[] = [];
  series.set.forEach((bucket, i) => {
    const energyWh = bucket.pvGeneration === null ? null : Math.max(0, bucket.pvGeneration);
    const time = times[i] ?? 0;
    // Today's bucket under way holds only what it measured so far: as a point its power would be too
    // low, and a stored point is never replaced. Its energy still counts for the day.
    if (time + bucketHours * 3_600_000 <= nowMs) {
      systemPoints.push({
        time,
        powerW: energyWh === null ? null : Math.round(energyWh / bucketHours),
        energyTodayWh: Math.round(producedWh),
      });
    }
    producedWh += energyWh ?? 0;
  });
  return { systemPoints, dailyEnergyWh: series.set.length > 0 ? Math.round(producedWh) : null };
}
