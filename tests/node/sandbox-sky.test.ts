import { describe, expect, it } from "vitest";
import { plantPowerW, simulatedPlant } from "../../sandbox/simulation";
import { weatherSandbox } from "../../sandbox/weather";

/**
 * The sandbox's plants and its weather service share one sky: a plant's day follows the clouds
 * the weather service reports for its place, as a real plant's follows the real weather. Were the
 * plants' clouds their own (as they were), a plant would make a clear day's energy under the
 * weather's overcast sky: its energy per unit of light then varied 7-fold between days, and the
 * product's PR read over 100 % on a grey day.
 */

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 5, 21, 0, 0, 0);
const DAYS = 24;

/** The weather service's daily irradiation (Wh/m²) at a place, for the DAYS UTC days before NOW. */
async function dailyIrradiationWhM2(latitude: number, longitude: number): Promise<number[]> {
  const app = weatherSandbox({ now: () => NOW });
  const query = `latitude=${latitude.toFixed(2)}&longitude=${longitude.toFixed(2)}&hourly=shortwave_radiation&past_days=${DAYS}&forecast_days=0`;
  const response = await app.request(`/v1/forecast?${query}`);
  const body = (await response.json()) as { hourly: { shortwave_radiation: number[] } };
  const hours = body.hourly.shortwave_radiation;
  expect(hours).toHaveLength(DAYS * 24);
  // Each value is the hour before its time stamp: the day's 24 are hours 1 to 24.
  return Array.from({ length: DAYS }, (_, day) => {
    let sum = 0;
    for (let h = 1; h <= 24; h++) sum += hours[day * 24 + h] ?? 0;
    return sum;
  });
}

/** A plant's energy (Wh) over the same UTC days, from its power every 5 minutes. */
function dailyEnergyWh(plant: ReturnType<typeof simulatedPlant>): number[] {
  const start = NOW - DAYS * DAY_MS;
  return Array.from({ length: DAYS }, (_, day) => {
    let sum = 0;
    for (let t = start + day * DAY_MS; t < start + (day + 1) * DAY_MS; t += 300_000) {
      sum += plantPowerW(plant, t) / 12;
    }
    return sum;
  });
}

describe("the sandbox's sky", () => {
  it("gives each plant the clouds its place's weather reports: its energy per unit of light stays within 25 % day to day", async () => {
    for (const index of [0, 1, 2, 7]) {
      const plant = simulatedPlant("solis", "1300386381676644416", index);
      const light = await dailyIrradiationWhM2(plant.latitude, plant.longitude);
      const energy = dailyEnergyWh(plant);
      const ratios = energy.map((wh, day) => wh / (light[day] ?? 1));
      const overcast = light.filter((whM2) => whM2 < 0.6 * Math.max(...light)).length;
      // The window holds grey days at the place, so the test sees the weather move.
      expect(overcast, `${plant.name}: grey days in the window`).toBeGreaterThan(0);
      const spread = Math.max(...ratios) / Math.min(...ratios);
      expect(spread, `${plant.name}: ${ratios.map((r) => r.toFixed(2)).join(" ")}`).toBeLessThan(1.25);
    }
  });
});
