import { DateTime } from "luxon";
import { type LossPlantSpec, lossPlantInverterFault, lossPlantInverterW } from "../../../sandbox/losses";
import { hourMeans, placeKey, skyAt, windKmh } from "../../../sandbox/sky";
import type { SystemDayInput } from "../../../worker/domain/losses/accounting";
import type { ReadingPoint } from "../../../worker/domain/losses/types";
import type { WeatherHour } from "../../../worker/domain/solar/plane-of-array";
import { DEFAULT_CALIBRATION, type PvSystem } from "../../../worker/domain/solar/pv-model";

const HOUR_MS = 3_600_000;
const STEP_MS = 300_000;

/**
 * A losses-account plant's last `days` finished plant-local days before `now`, as the product
 * would hold them: the sandbox weather service's hours for its place (radiation means of the hour
 * before each time stamp, temperature and wind at it) and the plant's 5-minute points with its
 * inverters' (or without them, as a vendor's history gives).
 */
export function sandboxDays(
  plant: LossPlantSpec,
  now: number,
  options: { days?: number; inverterPoints?: boolean } = {},
) {
  const count = options.days ?? 30;
  const today = DateTime.fromMillis(now, { zone: plant.timezone }).startOf("day");
  const weather = new Map<number, WeatherHour>();
  const place = placeKey(plant.latitude, plant.longitude);
  const first = Math.floor(today.minus({ days: count + 1 }).toMillis() / HOUR_MS) * HOUR_MS;
  for (let hourStart = first; hourStart < today.toMillis() + HOUR_MS; hourStart += HOUR_MS) {
    const end = hourStart + HOUR_MS;
    const means = hourMeans(plant.latitude, plant.longitude, end);
    weather.set(hourStart, {
      hourStart,
      ghiWm2: Math.round(means.ghiWm2),
      directWm2: Math.round(means.directWm2),
      diffuseWm2: Math.round(means.diffuseWm2),
      airC: skyAt(plant.latitude, plant.longitude, end).airC,
      windMs: windKmh(place, end) / 3.6,
      precipitationMm: means.precipitationMm,
    });
  }
  const system: PvSystem = {
    capacityW: plant.capacityW,
    latitude: plant.latitude,
    longitude: plant.longitude,
    tiltDeg: plant.tiltDeg,
    azimuthDeg: plant.azimuthDeg,
    acLimitW: null,
    calibration: DEFAULT_CALIBRATION,
  };
  const inputs: Omit<SystemDayInput, "system" | "weather">[] = [];
  for (let i = count; i >= 1; i--) {
    const day = today.minus({ days: i });
    const startMs = day.toMillis();
    const endMs = day.plus({ days: 1 }).toMillis();
    const points: ReadingPoint[] = [];
    const inverters = plant.inverterRatingsW.map((_, j) => ({
      inverterId: `inv-${j}`,
      points: [] as ReadingPoint[],
    }));
    let energyWh = 0;
    for (let at = startMs; at < endMs; at += STEP_MS) {
      const powers = plant.inverterRatingsW.map((_, j) => Math.round(lossPlantInverterW(plant, j, at)));
      const faults = plant.inverterRatingsW.map((_, j) => lossPlantInverterFault(plant, j, at));
      const powerW = powers.reduce((a, b) => a + b, 0);
      energyWh += (powerW * STEP_MS) / HOUR_MS;
      points.push({ at, powerW, state: faults.every(Boolean) ? "alarm" : "online" });
      inverters.forEach((inverter, j) => {
        inverter.points.push({ at, powerW: powers[j] ?? 0, state: faults[j] ? "alarm" : "online" });
      });
    }
    inputs.push({
      date: day.toISODate() ?? "",
      startMs,
      endMs,
      points,
      inverters: options.inverterPoints === false ? [] : inverters,
      inverterCount: plant.inverterRatingsW.length,
      counterEnergyWh: Math.round(energyWh),
    });
  }
  return { system, weather, inputs };
}
