import { describe, expect, it } from "vitest";
import {
  dayBoundaryIso,
  formatCapacityKw,
  formatCelsius,
  formatEnergyWh,
  formatHourMinute,
  formatIrradiance,
  formatKg,
  formatKw,
  formatKwh,
  formatKwhPerKw,
  formatNumber,
  formatPercent,
  formatPowerW,
  formatPriceGbp,
  formatRatio,
  formatSignedDecimal,
  formatSignedPercent,
  formatSpeedKmh,
  formatUvIndex,
  initialsFromEmail,
} from "../../web/lib/format";

describe("format", () => {
  it("takes avatar initials from the first two letters of the e-mail's local part", () => {
    expect(initialsFromEmail("olivia.owner@sunco.example")).toBe("OL");
    expect(initialsFromEmail("x@sunco.example")).toBe("X");
  });

  it("shows power of 1000 W or more in kW with one decimal, below that in whole W", () => {
    expect(formatPowerW(999.6)).toBe("1.0 kW");
    expect(formatPowerW(999.4)).toBe("999 W");
    expect(formatPowerW(950.2)).toBe("950 W");
    expect(formatPowerW(1000)).toBe("1.0 kW");
    expect(formatPowerW(12_345)).toBe("12.3 kW");
  });

  it("shows energy of 1000 Wh or more in kWh with one decimal", () => {
    expect(formatEnergyWh(500)).toBe("500 Wh");
    expect(formatEnergyWh(2500)).toBe("2.5 kWh");
  });

  it("always puts the unit on capacities and the currency on prices", () => {
    expect(formatCapacityKw(0)).toBe("0 kW");
    expect(formatCapacityKw(100.5)).toBe("100.5 kW");
    expect(formatPriceGbp(79)).toBe("£79");
    expect(formatPriceGbp(79, "fr-FR")).toMatch(/^79\s£$/);
  });

  it("writes percentages the locale's way, French with a space before the sign", () => {
    expect(formatPercent(84.2, "en-GB")).toBe("84.2%");
    expect(formatPercent(87, "en-GB", 0)).toBe("87%");
    expect(formatPercent(84.2, "fr-FR")).toMatch(/^84,2\s%$/);
    expect(formatPercent(87, "fr-FR", 0)).toMatch(/^87\s%$/);
  });

  it("shows a ratio as a whole percentage", () => {
    expect(formatRatio(0.842, "en-GB")).toBe("84%");
    expect(formatRatio(0.875, "en-GB")).toBe("88%");
    expect(formatRatio(1.05, "fr-FR")).toMatch(/^105\s%$/);
  });

  it("signs changes with +, a typographic minus, or ± for what rounds to zero", () => {
    expect(formatSignedPercent(20, "en-GB")).toBe("+20.0%");
    expect(formatSignedPercent(-25, "en-GB")).toBe("−25.0%");
    expect(formatSignedPercent(-0.04, "en-GB")).toBe("±0.0%");
    expect(formatSignedPercent(12.5, "fr-FR")).toMatch(/^\+12,5\s%$/);
    expect(formatSignedDecimal(12.34, "en-GB")).toBe("+12.3");
    expect(formatSignedDecimal(-2.66, "en-GB")).toBe("−2.7");
    expect(formatSignedDecimal(0.04, "en-GB")).toBe("±0.0");
  });

  it("shows a missing or non-finite quantity as a dash", () => {
    expect(formatPercent(null, "en-GB")).toBe("—");
    expect(formatPercent(Number.NaN, "en-GB")).toBe("—");
    expect(formatRatio(null, "en-GB")).toBe("—");
    expect(formatCelsius(null, "en-GB")).toBe("—");
    expect(formatKwhPerKw(null, "en-GB")).toBe("—");
    expect(formatHourMinute("not a time")).toBe("—");
  });

  it("keeps one decimal on small kW and kWh and drops it from 100 upwards", () => {
    expect(formatKw(2.46, "en-GB")).toBe("2.5 kW");
    expect(formatKw(-150.4, "en-GB")).toBe("-150 kW");
    expect(formatKwh(99.94, "en-GB")).toBe("99.9 kWh");
    expect(formatKwh(9876.4, "en-GB")).toBe("9,876 kWh");
    expect(formatKwhPerKw(3.6, "en-GB")).toBe("3.60 kWh/kWp");
  });

  it("writes mass in kg below a tonne and in t from a tonne", () => {
    expect(formatKg(920, "en-GB")).toBe("920.0 kg");
    expect(formatKg(1250, "en-GB")).toBe("1.25 t");
  });

  it("puts the unit after weather quantities in the reader's locale", () => {
    expect(formatCelsius(18.44, "en-GB")).toBe("18.4 °C");
    expect(formatCelsius(18.44, "fr-FR")).toBe("18,4 °C");
    expect(formatIrradiance(611.6, "en-GB")).toBe("612 W/m²");
    expect(formatSpeedKmh(14.2, "en-GB")).toBe("14.2 km/h");
    expect(formatUvIndex(6, "en-GB")).toBe("6.0");
    expect(formatNumber(51.5074, "en-GB", 2)).toBe("51.51");
  });

  it("shows hours and minutes in the given zone, falling back to UTC for an unknown zone", () => {
    const instant = "2026-04-04T13:30:00Z";
    expect(formatHourMinute(instant, { locale: "en-GB", timeZone: "Europe/Paris" })).toBe("15:30");
    expect(formatHourMinute(instant, { locale: "en-GB", timeZone: "Not/AZone" })).toBe("13:30");
  });

  it("turns a date-input day into the local start or end instant", () => {
    const start = dayBoundaryIso("2026-03-01", "start");
    const end = dayBoundaryIso("2026-03-01", "end");
    expect(start && new Date(start).getHours()).toBe(0);
    expect(end && new Date(end).getMinutes()).toBe(59);
    expect(dayBoundaryIso("not a day", "start")).toBeUndefined();
  });
});
