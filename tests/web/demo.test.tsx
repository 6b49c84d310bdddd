import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { demoStatusVariant } from "../../web/components/demo/demo-badges";
import { DEMO_TICK_MS } from "../../web/components/demo/use-demo-simulation";
import { mulberry32, unitAt } from "../../web/lib/demo/prng";
import {
  advanceDemoTime,
  DEMO_SEED,
  DEMO_STEP_MS,
  demoEnergySeries,
  demoPowerSeries,
  demoSites,
  initialDemoTime,
  localDayStart,
  MONTHLY_TARGET_PERCENT,
  simulateDemo,
  sitePowerKw,
} from "../../web/lib/demo/simulation";
import { mockApi, renderApp } from "./helpers";

const HOUR_MS = 3_600_000;

function demoSite(index: number) {
  const site = demoSites[index];
  if (!site) throw new Error(`No demo site ${index}`);
  return site;
}
/** 10:00 in Arizona (UTC-7) on 15 June 2026. */
const JUNE_MORNING = Date.UTC(2026, 5, 15, 17, 0);

describe("demo simulation", () => {
  it("has three sites totalling 1,425 kW and a 78 % monthly target", () => {
    const snapshot = simulateDemo(DEMO_SEED, JUNE_MORNING);
    expect(snapshot.sites).toHaveLength(3);
    expect(snapshot.summary.totalCapacity).toBe(1425);
    expect(snapshot.sites.map((site) => site.capacity)).toEqual([500, 600, 325]);
    expect(MONTHLY_TARGET_PERCENT).toBe(78);
    expect(snapshot.sites.map((site) => site.status)).toEqual(["operational", "operational", "maintenance"]);
    expect(snapshot.summary.activeSites).toBe(2);
  });

  it("gives the same figures for the same seed and time, and never calls Math.random", () => {
    const random = vi.spyOn(Math, "random");
    const first = simulateDemo(DEMO_SEED, JUNE_MORNING + 2 * HOUR_MS);
    const second = simulateDemo(DEMO_SEED, JUNE_MORNING + 2 * HOUR_MS);
    expect(second).toEqual(first);
    expect(demoPowerSeries(DEMO_SEED, demoSite(0), JUNE_MORNING)).toEqual(
      demoPowerSeries(DEMO_SEED, demoSite(0), JUNE_MORNING),
    );
    expect(random).not.toHaveBeenCalled();
    expect(simulateDemo(DEMO_SEED + 1, JUNE_MORNING + 2 * HOUR_MS)).not.toEqual(first);
  });

  it("draws reproducible numbers in [0, 1) from its seeded generator", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const draws = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(draws);
    expect(draws.every((value) => value >= 0 && value < 1)).toBe(true);
    expect(new Set(draws).size).toBeGreaterThan(990);
    expect(unitAt(7, 1, 2, 3)).toBe(unitAt(7, 1, 2, 3));
    expect(unitAt(7, 1, 2, 3)).not.toBe(unitAt(7, 1, 2, 4));
  });

  it("follows the sun: nothing at night, most at midday, never above capacity", () => {
    const site = demoSite(0);
    const midnight = localDayStart(JUNE_MORNING);
    expect(sitePowerKw(DEMO_SEED, site, midnight + 2 * HOUR_MS)).toBe(0);
    const noon = sitePowerKw(DEMO_SEED, site, midnight + 12.5 * HOUR_MS);
    const morning = sitePowerKw(DEMO_SEED, site, midnight + 7 * HOUR_MS);
    expect(noon).toBeGreaterThan(morning);
    for (let hour = 0; hour < 24; hour += 0.25) {
      expect(sitePowerKw(DEMO_SEED, site, midnight + hour * HOUR_MS)).toBeLessThanOrEqual(site.capacity);
    }
  });

  it("adds up today's and the month's energy and keeps efficiency near the target", () => {
    const snapshot = simulateDemo(DEMO_SEED, JUNE_MORNING + 6 * HOUR_MS);
    const { summary, sites } = snapshot;
    expect(summary.todayGeneration).toBeCloseTo(sites.reduce((sum, site) => sum + site.dailyGeneration, 0));
    expect(summary.totalCurrentPower).toBeCloseTo(sites.reduce((sum, site) => sum + site.currentPower, 0));
    for (const site of sites) expect(site.monthlyGeneration).toBeGreaterThan(site.dailyGeneration);
    expect(summary.avgEfficiency).toBeGreaterThan(60);
    expect(summary.avgEfficiency).toBeLessThan(95);
    // The site in maintenance delivers less of its rating than the healthy ones.
    const [phoenix, , flagstaff] = sites;
    expect(flagstaff?.efficiency).toBeLessThan(phoenix?.efficiency ?? 0);
    expect(summary.totalAlerts).toBe(sites.reduce((sum, site) => sum + site.alerts.length, 0));
    expect(flagstaff?.alerts.some((alert) => alert.kind === "maintenance")).toBe(true);
  });

  it("moves the clock five minutes a tick and skips the night", () => {
    expect(initialDemoTime(JUNE_MORNING + 5 * HOUR_MS)).toBe(JUNE_MORNING);
    expect(advanceDemoTime(JUNE_MORNING)).toBe(JUNE_MORNING + DEMO_STEP_MS);
    const lateEvening = localDayStart(JUNE_MORNING) + 19.95 * HOUR_MS;
    expect(advanceDemoTime(lateEvening)).toBe(localDayStart(JUNE_MORNING) + 30 * HOUR_MS);
  });

  it("gives seven days of energy with an expectation for the charts", () => {
    const days = demoEnergySeries(DEMO_SEED, demoSite(1), JUNE_MORNING, 7);
    expect(days.map((day) => day.date)).toEqual([
      "2026-06-09",
      "2026-06-10",
      "2026-06-11",
      "2026-06-12",
      "2026-06-13",
      "2026-06-14",
      "2026-06-15",
    ]);
    for (const day of days.slice(0, 6)) {
      expect(day.energyWh).toBeGreaterThan(1_000_000);
      expect(day.performanceRatio).toBeGreaterThan(0.4);
      expect(day.performanceRatio).toBeLessThanOrEqual(1);
    }
  });
});

describe("demo badges", () => {
  it("maps operational to default, maintenance to secondary and anything else to destructive", () => {
    expect(demoStatusVariant("operational")).toBe("default");
    expect(demoStatusVariant("maintenance")).toBe("secondary");
    expect(demoStatusVariant("offline")).toBe("destructive");
  });
});

describe("demo page", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function openDemo() {
    // Only the simulation's interval is faked; the router and queries keep real timers.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    mockApi({});
    return renderApp("/demo");
  }

  const clockText = () => screen.getByText(/^Simulated time:/).textContent;
  const tick = (times = 1) =>
    act(() => {
      vi.advanceTimersByTime(DEMO_TICK_MS * times);
    });

  it("shows the four summary cards with 1,425 kW across 3 sites", async () => {
    openDemo();
    const capacity = (await screen.findByText("Total capacity")).parentElement as HTMLElement;
    expect(capacity).toHaveTextContent("1,425 kW");
    expect(capacity).toHaveTextContent("Across 3 sites");
    expect((screen.getByText("Live generation").parentElement as HTMLElement).textContent).toMatch(
      /kW.*% of capacity/,
    );
    expect((screen.getByText("Today's generation").parentElement as HTMLElement).textContent).toMatch(
      /kWh.*Month to date/,
    );
    expect(screen.getByText("System health").parentElement).toHaveTextContent(
      /2 of 3Sites operational · active alerts: \d/,
    );
  });

  it("advances the simulated clock while Live and holds it while Paused", async () => {
    const { user } = openDemo();
    await screen.findByText("Total capacity");
    const start = clockText();
    tick();
    const afterTick = clockText();
    expect(afterTick).not.toBe(start);

    await user.click(screen.getByRole("button", { name: "Live" }));
    expect(screen.getByRole("button", { name: "Paused" })).toHaveAttribute("aria-pressed", "false");
    tick(3);
    expect(clockText()).toBe(afterTick);

    await user.click(screen.getByRole("button", { name: "Paused" }));
    tick();
    expect(clockText()).not.toBe(afterTick);
  });

  it("resets to the first site, Live, and the starting time", async () => {
    const { user } = openDemo();
    await screen.findByText("Total capacity");
    const start = clockText();
    await user.click(screen.getByRole("tab", { name: "Solar Sites" }));
    const cards = () =>
      screen.getAllByRole("button").filter((b) => b.hasAttribute("aria-pressed") && b.closest("main"));
    expect(cards()[0]).toHaveAttribute("aria-pressed", "true");

    await user.click(screen.getByRole("button", { name: /Pine Ridge Rooftops/ }));
    expect(screen.getByRole("button", { name: /Pine Ridge Rooftops/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(screen.getByRole("button", { name: /Desert Sun Solar Farm/ })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    expect(screen.getByText("Pine Ridge Rooftops: power today")).toBeInTheDocument();
    tick(2);
    expect(clockText()).not.toBe(start);
    await user.click(screen.getByRole("button", { name: "Live" }));
    expect(screen.getByRole("button", { name: "Paused" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(screen.getByRole("button", { name: "Live" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: /Desert Sun Solar Farm/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(screen.getByRole("button", { name: /Pine Ridge Rooftops/ })).toHaveAttribute(
      "aria-pressed",
      "false",
    );
    expect(clockText()).toBe(start);
  });

  it("badges sites by status and shows the overview's weather, target and alerts", async () => {
    const { user } = openDemo();
    await screen.findByText("Total capacity");
    expect(screen.getByText("Overall efficiency this month")).toBeInTheDocument();
    expect(screen.getByText("Monthly target: 78%")).toBeInTheDocument();
    expect(screen.getByText(/points (above|below) target/)).toBeInTheDocument();
    expect(screen.getByText(/^\d+ °F$/)).toBeInTheDocument();
    expect(screen.getByText(/mph$/)).toBeInTheDocument();
    expect(screen.getByText(/^(Clear Sky|Partly Cloudy|Cloudy)$/)).toBeInTheDocument();
    expect(screen.getByText("Recent alerts")).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Solar Sites" }));
    const maintenance = screen.getByRole("button", { name: /Pine Ridge Rooftops/ });
    expect(within(maintenance).getByText("Maintenance").closest("[data-variant]")).toHaveAttribute(
      "data-variant",
      "secondary",
    );
    const operational = screen.getByRole("button", { name: /Desert Sun Solar Farm/ });
    expect(within(operational).getByText("Operational").closest("[data-variant]")).toHaveAttribute(
      "data-variant",
      "default",
    );
  });

  it("lists every provider as Connected and the team in Settings", async () => {
    const { user } = openDemo();
    await user.click(await screen.findByRole("tab", { name: "Settings" }));
    expect(screen.getAllByText("Connected")).toHaveLength(5);
    for (const name of ["Solis", "Fronius", "SMA", "SolaX", "Meteronline"]) {
      expect(screen.getByText(name)).toBeInTheDocument();
    }
    expect(screen.getByText("Organization Owner")).toBeInTheDocument();
  });

  it("draws the analytics from the simulation and links Try It Live and Start Free Trial to /login", async () => {
    const { user } = openDemo();
    await user.click(await screen.findByRole("tab", { name: "Analytics" }));
    expect(screen.getByText("Generation by site today")).toBeInTheDocument();
    expect(screen.getByText("Desert Sun Solar Farm: actual vs expected, last 7 days")).toBeInTheDocument();
    expect(screen.getByText("Share of today's energy")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Try It Live" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  });
});
