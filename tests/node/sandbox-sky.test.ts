import { describe, expect, it } from "vitest";
import { plantPowerW, simulatedPlant } from "../../sandbox/simulation";
import { weatherSandbox } from "../../sandbox/weather";

/**
 * The sandbox's plants and its weather service share one sky: a plant's day follows the light the
 * weather service reports on its plane (its tilt and azimuth) at its place, as a real plant's
 * follows the real weather. Were the plants' clouds their own (as they were), a plant would make a
 * clear day's energy under the weather's overcast sky (its energy per unit of light varied 7-fold
 * between days, and the product's PR read over 100 % on a grey day); were its plane flat (as it
 * was), a winter's day at 52° N would read a PR under 50 % against the light on its tilt.
 */

const DAY_MS = 86_400_000;
const DAYS = 24;

/**
 * The weather service's daily irradiation (Wh/m²) on a plant's plane, for the DAYS UTC days before
 * `now`, asked as the product asks for it (Open-Meteo's azimuth: 0 south, clockwise from north less 180).
 */
async function dailyIrradiationWhM2(
  plant: ReturnType<typeof simulatedPlant>,
  now: number,
): Promise<number[]> {
  const app = weatherSandbox({ now: () => now });
  const query = new URLSearchParams({
    latitude: plant.latitude.toFixed(2),
    longitude: plant.longitude.toFixed(2),
    hourly: "global_tilted_irradiance",
    tilt: String(plant.tiltDeg),
    azimuth: String(plant.azimuthDeg - 180),
    past_days: String(DAYS),
    forecast_days: "0",
  });
  const response = await app.request(`/v1/forecast?${query}`);
  const body = (await response.json()) as { hourly: { global_tilted_irradiance: number[] } };
  const hours = body.hourly.global_tilted_irradiance;
  expect(hours).toHaveLength(DAYS * 24);
  // Each value is the hour before its time stamp: the day's 24 are hours 1 to 24.
  return Array.from({ length: DAYS }, (_, day) => {
    let sum = 0;
    for (let h = 1; h <= 24; h++) sum += hours[day * 24 + h] ?? 0;
    return sum;
  });
}

/** A plant's energy (Wh) over the same UTC days, from its power every 5 minutes. */
function dailyEnergyWh(plant: ReturnType<typeof simulatedPlant>, now: number): number[] {
  const start = now - DAYS * DAY_MS;
  return Array.from({ length: DAYS }, (_, day) => {
    let sum = 0;
    for (let t = start + day * DAY_MS; t < start + (day + 1) * DAY_MS; t += 300_000) {
      sum += plantPowerW(plant, t) / 12;
    }
    return sum;
  });
}

describe("the sandbox's sky", () => {
  it.each([
    ["summer", Date.UTC(2026, 5, 21)],
    ["winter", Date.UTC(2026, 11, 21)],
  ])(
    "gives each plant the light its place's weather reports on its plane (%s): its energy per kWp and unit of that light stays near 0.86, within 25 % day to day",
    async (_season, now) => {
      for (const index of [0, 1, 2, 7]) {
        const plant = simulatedPlant("solis", "1300386381676644416", index);
        const light = await dailyIrradiationWhM2(plant, now);
        const energy = dailyEnergyWh(plant, now);
        // Wh per kWp per kWh/m² of the plane's light: the plant's performance ratio of each day.
        const ratios = energy.map((wh, day) => wh / (plant.capacityW / 1000) / (light[day] ?? 1));
        const overcast = light.filter((whM2) => whM2 < 0.6 * Math.max(...light)).length;
        // The window holds grey days at the place, so the test sees the weather move.
        expect(overcast, `${plant.name}: grey days in the window`).toBeGreaterThan(0);
        const shown = `${plant.name}: ${ratios.map((r) => r.toFixed(2)).join(" ")}`;
        expect(Math.max(...ratios) / Math.min(...ratios), shown).toBeLessThan(1.25);
        // 0.86 at most (the simulation's losses), less on a day with a fault or clipping.
        expect(Math.min(...ratios), shown).toBeGreaterThan(0.65);
        expect(Math.max(...ratios), shown).toBeLessThan(0.9);
      }
    },
  );
});
