import { describe, expect, it } from "vitest";
import {
  dayBoundaryIso,
  formatCapacityKw,
  formatEnergyWh,
  formatPowerW,
  formatPriceGbp,
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

  it("turns a date-input day into the local start or end instant", () => {
    const start = dayBoundaryIso("2026-03-01", "start");
    const end = dayBoundaryIso("2026-03-01", "end");
    expect(start && new Date(start).getHours()).toBe(0);
    expect(end && new Date(end).getMinutes()).toBe(59);
    expect(dayBoundaryIso("not a day", "start")).toBeUndefined();
  });
});
