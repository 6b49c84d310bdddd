import { DateTime } from "luxon";
import { z } from "zod";
import type { HistoryRequest, ProviderCallContext, ProviderHistoryDay } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import type { SolisClient } from "./client";
import { energyWh, powerW } from "./normalise";
import { stationDayRowSchema } from "./schemas";

const dayCurveSchema = z.array(stationDayRowSchema);

/**
 * One station's plant-local day from `stationDay` (API doc V2, station day curve): one call per
 * station and day, 5-minute rows of power and energy produced since midnight; the day's energy is
 * the last row's. The request names the day and the station's hour offset on it.
 */
export async function fetchSolisHistory(
  ctx: Pick<ProviderCallContext, "now">,
  client: SolisClient,
  request: HistoryRequest,
): Promise<ProviderHistoryDay> {
  const noon = DateTime.fromISO(`${request.date}T12:00:00`, { zone: request.timezone });
  const data = await client.call("stationDay", {
    id: request.providerSystemId,
    money: "EUR",
    time: request.date,
    timeZone: noon.offset / 60,
  });
  const rows = parseVendorAnswer(
    dayCurveSchema,
    data ?? [],
    "SolisCloud",
    `the stationDay curve of ${request.date}`,
  );
  const day = DateTime.fromISO(request.date, { zone: request.timezone });
  const [startMs, endMs] = [day.toMillis(), day.plus({ days: 1 }).toMillis()];
  const upTo = ctx.now();
  const systemPoints = rows
    .filter((row) => row.time !== null && row.time >= startMs && row.time < endMs && row.time <= upTo)
    .map((row) => ({
      time: row.time as number,
      powerW: powerW(row.power, row.powerStr, row.powerPec),
      energyTodayWh: energyWh(row.produceEnergy, row.produceEnergyStr),
    }))
    .sort((a, b) => a.time - b.time);
  const energies = systemPoints.map((p) => p.energyTodayWh).filter((e): e is number => e !== null);
  return { systemPoints, dailyEnergyWh: energies.length > 0 ? Math.max(...energies) : null };
}
