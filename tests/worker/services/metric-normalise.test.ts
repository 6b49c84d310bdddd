import { describe, expect, it } from "vitest";
import { normalisedPowerW, normalisedTodayWh, type RawMetricEntry } from "../../../schema/metric-normalise";

describe("power normalisation of a unit-less metric entry", () => {
  it.each<[string, RawMetricEntry, number]>([
    ["currentPowerW wins", { currentPowerW: 4200, pac: 1, capacity: 10 }, 4200],
    ["zero currentPowerW falls through to pac", { currentPowerW: 0, pac: 3500, capacity: 10 }, 3500],
    ["empty and null count as 0", { currentPowerW: "", pac: null, currentPower: 2750, capacity: 5 }, 2750],
    ["power string with a trailing W", { power: "1850 W", capacity: 6 }, 1850],
    ["power string without unit", { power: "1850", capacity: 6 }, 1850],
    [
      "sum over inverters when nothing else",
      { inverters: [{ pac: 1200 }, { currentPowerW: 800 }], capacity: 6 },
      2000,
    ],
    ["kW heuristic: at most twice the capacity is kW", { pac: 5.2, capacity: 6.4 }, 5200],
    ["kW heuristic: exactly twice the capacity", { pac: 12.8, capacity: 6.4 }, 12800],
    ["above twice the capacity stays W", { pac: 12.9, capacity: 6.4 }, 12.9],
    ["no capacity: no heuristic", { pac: 5.2 }, 5.2],
    ["unreadable strings count as 0", { power: "n/a", currentPower: "abc" }, 0],
    ["nothing at all is 0", {}, 0],
  ])("%s", (_name, entry, expected) => {
    expect(normalisedPowerW(entry)).toBeCloseTo(expected, 6);
  });
});

describe("today's generation of a unit-less metric entry", () => {
  it.each<[string, RawMetricEntry, number]>([
    ["todayGenerationWh as is", { todayGenerationWh: 18600, etoday: 1 }, 18600],
    ["etoday in kWh", { etoday: 18.6 }, 18600],
    ["todayGeneration number in kWh", { todayGeneration: 7.25 }, 7250],
    ["yieldtoday in kWh, rounded", { yieldtoday: 12.3456 }, 12346],
    ["numeric string read as kWh", { etoday: "4.2" }, 4200],
    ["todayGeneration string ending in kWh", { todayGeneration: "12.5 kWh" }, 12500],
    ["sum of inverters' energyWh", { inverters: [{ energyWh: 1000 }, { energyWh: 2500 }] }, 3500],
    ["nothing at all is 0", {}, 0],
  ])("%s", (_name, entry, expected) => {
    expect(normalisedTodayWh(entry)).toBe(expected);
  });
});
