import { QueryClientProvider, useQueries, useQuery } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AlertSummary } from "../../schema/api/alerts";
import type { SystemsPage, SystemsPageQuery } from "../../schema/api/dashboard";
import type { DashboardMetric } from "../../schema/api/metrics";
import { SystemLiveRow } from "../../web/components/dashboard/system-live-row";
import { ProfileProvider } from "../../web/components/profile-context";
import { loadStringSet } from "../../web/lib/i18n";
import { connectLive } from "../../web/lib/live";
import {
  applyLiveMessage,
  mergeLiveUpdate,
  resetLiveSeen,
  TOTALS_READ_INTERVAL_MS,
  useLiveCacheSync,
  watchOfScreens,
} from "../../web/lib/live-cache";
import { alertKeys } from "../../web/lib/queries/alerts";
import { dashboardKeys, keepNewerEntries } from "../../web/lib/queries/metrics";
import { makeLiveUpdate, makeMetric, makeSummary } from "./dashboard-fixtures";
import { FakeWebSocket } from "./fake-websocket";
import { makeProfile, mockApi, testQueryClient } from "./helpers";

// The row is an app screen's part, rendered here without the app's route that loads its strings.
beforeAll(() => loadStringSet("app"));

describe("merging live updates", () => {
  it("takes power, energy, state, inverters and data time and marks the system fresh", () => {
    const metric = makeMetric({
      status: "stale",
      stale: true,
      dataTime: "2026-06-01T08:00:00.000Z",
      capacity: 10,
    });
    const update = makeLiveUpdate({
      powerW: 4200,
      pac: 4200,
      energyTodayWh: 15_500,
      state: 3,
      capacityW: 10_000,
    });
    const merged = mergeLiveUpdate(metric, update);
    expect(merged).toMatchObject({
      currentPowerW: 4200,
      pac: 4200,
      currentPower: 4200,
      power: 4200,
      todayGenerationWh: 15_500,
      etoday: 15.5,
      state: 3,
      status: "fault",
      stale: false,
      dataTime: update.timestamp,
      efficiency: 42,
      // The PR needs the day's expectation; it is refreshed with the next metrics read.
      performanceRatio: metric.performanceRatio,
    });
    expect(merged.inverters).toEqual([
      {
        sn: "INV-1",
        state: 1,
        currentPowerW: 4200,
        pac: 4200,
        power: 4200,
        energyWh: 15_500,
        temperatureC: 38,
      },
    ]);
  });

  it("reads etoday as kWh when the Wh field is absent, and a counter from yesterday as 0", () => {
    const metric = makeMetric({ timezone: "UTC" });
    expect(
      mergeLiveUpdate(metric, makeLiveUpdate({ energyTodayWh: null, etoday: 7.25 })).todayGenerationWh,
    ).toBe(7250);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect(mergeLiveUpdate(metric, makeLiveUpdate({ timestamp: yesterday })).todayGenerationWh).toBe(0);
  });

  it("updates the system on every cached page of the systems list and has the totals read again", () => {
    const queryClient = testQueryClient();
    const query = { page: 1, pageSize: 50, q: "", sort: "pr", direction: "asc" } as const;
    const byName = { ...query, sort: "system" } as const;
    const other = makeMetric({ systemId: "sys-2", currentPowerW: 800 });
    queryClient.setQueryData<SystemsPage>(dashboardKeys.systems(query), {
      items: [other, makeMetric()],
      page: 1,
      pageSize: 50,
      total: 2,
    });
    queryClient.setQueryData<SystemsPage>(dashboardKeys.systems(byName), {
      items: [makeMetric()],
      page: 1,
      pageSize: 50,
      total: 2,
    });
    queryClient.setQueryData(dashboardKeys.summary(), { summary: makeSummary(), fallback: false });
    applyLiveMessage(queryClient, { type: "solis_realtime_update", data: makeLiveUpdate({ powerW: 4200 }) });
    const page = queryClient.getQueryData<SystemsPage>(dashboardKeys.systems(query));
    expect(page?.items.map((metric) => metric.currentPowerW)).toEqual([800, 4200]);
    expect(page?.items[0]).toBe(other);
    expect(
      queryClient.getQueryData<SystemsPage>(dashboardKeys.systems(byName))?.items[0]?.currentPowerW,
    ).toBe(4200);
    const older = new Date(Date.now() - 3_600_000).toISOString();
    applyLiveMessage(queryClient, {
      type: "solis_realtime_update",
      data: makeLiveUpdate({ powerW: 10, timestamp: older }),
    });
    expect(queryClient.getQueryData<SystemsPage>(dashboardKeys.systems(query))?.items[1]?.currentPowerW).toBe(
      4200,
    );
    // The client adds nothing up: the totals and the pages' order come from the API again.
    expect(queryClient.getQueryState(dashboardKeys.summary())?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(dashboardKeys.systems(query))?.isInvalidated).toBe(true);
  });

  it("keeps a live-updated entry when a slower read answers with older values", () => {
    const live = makeMetric({ currentPowerW: 4200, dataTime: "2026-06-01T10:10:00.000Z" });
    const other = makeMetric({ systemId: "sys-2", dataTime: "2026-06-01T10:00:00.000Z" });
    const fetched = [
      makeMetric({ currentPowerW: 1500, dataTime: "2026-06-01T10:05:00.000Z" }),
      makeMetric({ systemId: "sys-2", currentPowerW: 900, dataTime: "2026-06-01T10:05:00.000Z" }),
    ];
    const result = keepNewerEntries([live, other], fetched) as DashboardMetric[];
    expect(result.map((metric) => metric.currentPowerW)).toEqual([4200, 900]);
  });

  it("sets the unresolved count on alerts_changed and marks the alert lists for a refresh", () => {
    const queryClient = testQueryClient();
    queryClient.setQueryData<AlertSummary>(alertKeys.summary(), {
      open: 1,
      critical: 1,
      warning: 0,
      info: 0,
    });
    queryClient.setQueryData(alertKeys.list({ state: "open" }), []);
    applyLiveMessage(queryClient, { type: "alerts_changed", data: { openCount: 4 } });
    expect(queryClient.getQueryData<AlertSummary>(alertKeys.summary())?.open).toBe(4);
    expect(queryClient.getQueryState(alertKeys.list({ state: "open" }))?.isInvalidated).toBe(true);
  });
});

function LiveRowHarness({ siteId, systemId }: { siteId: string; systemId: string }) {
  useLiveCacheSync();
  return <SystemLiveRow siteId={siteId} systemId={systemId} />;
}

/** The site's page as the API answers it. */
const sitePage = (items: DashboardMetric[]): SystemsPage => ({
  items,
  page: 1,
  pageSize: 200,
  total: items.length,
});

describe("reading the totals again after live messages", () => {
  it("reads them at once, then at most once an interval however many pages a sync stores", () => {
    vi.useFakeTimers();
    try {
      const queryClient = testQueryClient();
      const invalidated = () => queryClient.getQueryState(dashboardKeys.summary())?.isInvalidated;
      queryClient.setQueryData(dashboardKeys.summary(), makeSummary());
      applyLiveMessage(queryClient, { type: "systems_updated", data: { count: 100 } });
      expect(invalidated()).toBe(true);
      // The read came back; a large fleet's next pages follow within seconds: no read for them.
      queryClient.setQueryData(dashboardKeys.summary(), makeSummary());
      for (let page = 0; page < 9; page++) {
        vi.advanceTimersByTime(1_000);
        applyLiveMessage(queryClient, { type: "systems_updated", data: { count: 100 } });
        applyLiveMessage(queryClient, {
          type: "realtime_update",
          data: makeLiveUpdate({ systemId: "sys-1" }),
        });
      }
      expect(invalidated()).toBe(false);
      // An interval after the last read, the next page's message reads them again.
      vi.advanceTimersByTime(TOTALS_READ_INTERVAL_MS - 9_000);
      applyLiveMessage(queryClient, { type: "systems_updated", data: { count: 100 } });
      expect(invalidated()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("SystemLiveRow", () => {
  it("waits for the first live message of the session, then shows the system's live values", async () => {
    // Messages applied by the tests above count as seen in this module: this session starts afresh.
    resetLiveSeen();
    const profile = makeProfile();
    localStorage.setItem("auth_token", "tok");
    const { calls } = mockApi({
      "GET /api/dashboard/systems": {
        body: sitePage([makeMetric({ currentPowerW: 1500, siteId: "site-1" })]),
      },
      "GET /api/user/preferences": { status: 404, body: { error: "none" } },
    });
    const queryClient = testQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <ProfileProvider profile={profile}>
          <LiveRowHarness siteId="site-1" systemId="sys-1" />
        </ProfileProvider>
      </QueryClientProvider>,
    );
    // The stored values are known, but nothing has come live yet.
    await vi.waitFor(() =>
      expect(queryClient.getQueriesData({ queryKey: dashboardKeys.systemPages() })[0]?.[1]).toBeDefined(),
    );
    expect(calls.filter((call) => call.path === "/api/dashboard/systems")).toHaveLength(1);
    expect(screen.getByText("Waiting for real-time data...")).toBeInTheDocument();
    // Only its site's systems are read, never the whole fleet.
    expect(new URL(calls[calls.length - 1]?.url ?? "", "http://localhost").searchParams.get("siteId")).toBe(
      "site-1",
    );

    connectLive("tok");
    const socket = FakeWebSocket.instances[0];
    act(() => socket?.serverOpens());
    // Another system's message does not end this one's wait.
    act(() =>
      socket?.serverSends({ type: "solis_realtime_update", data: makeLiveUpdate({ systemId: "sys-9" }) }),
    );
    expect(screen.getByText("Waiting for real-time data...")).toBeInTheDocument();

    act(() =>
      socket?.serverSends({
        type: "solis_realtime_update",
        data: makeLiveUpdate({ systemId: "sys-1", powerW: 4200, energyTodayWh: 15_500 }),
      }),
    );
    expect(await screen.findByText("4.2 kW")).toBeInTheDocument();
    expect(screen.getByText("15.5 kWh")).toBeInTheDocument();
    expect(screen.getByText("Online")).toBeInTheDocument();
    expect(screen.getByText("Data time")).toBeInTheDocument();
    expect(screen.queryByText("Waiting for real-time data...")).not.toBeInTheDocument();
    // The page is read again after live messages (its order may change); the read answering
    // after sys-1's message, with older values, did not put them back.
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.path === "/api/dashboard/systems").length).toBeGreaterThan(1),
    );
    await act(async () => {
      await queryClient.refetchQueries();
    });
    expect(screen.getByText("4.2 kW")).toBeInTheDocument();
    expect(calls.filter((call) => call.path === "/api/dashboard/metrics")).toHaveLength(0);
  });
});

describe("reconnecting", () => {
  it("reads the systems pages again after a reconnect, not on the first connection", async () => {
    const queryClient = testQueryClient();
    const siteQuery = {
      page: 1,
      pageSize: 200,
      q: "",
      sort: "system",
      direction: "asc",
      siteId: "site-1",
    } as const;
    queryClient.setQueryData(dashboardKeys.systems(siteQuery), sitePage([makeMetric()]));
    render(
      <QueryClientProvider client={queryClient}>
        <SyncOnly />
      </QueryClientProvider>,
    );
    connectLive("tok");
    const socket = FakeWebSocket.instances[0];
    const connected = { type: "connected", data: { orgId: "org-1", serverTime: new Date().toISOString() } };
    act(() => socket?.serverOpens());
    act(() => socket?.serverSends(connected));
    expect(queryClient.getQueryState(dashboardKeys.systems(siteQuery))?.isInvalidated).toBe(false);
    act(() => socket?.serverSends(connected));
    expect(queryClient.getQueryState(dashboardKeys.systems(siteQuery))?.isInvalidated).toBe(true);
  });
});

function SyncOnly() {
  useLiveCacheSync();
  return null;
}

describe("what the socket watches", () => {
  const dashboardPage: SystemsPageQuery = { page: 1, pageSize: 50, q: "", sort: "system", direction: "asc" };
  const sitePageQuery: SystemsPageQuery = { ...dashboardPage, pageSize: 200, siteId: "site-1" };
  const watchesSent = (socket: FakeWebSocket | undefined) =>
    (socket?.sent ?? []).map((text) => JSON.parse(text)).filter((message) => message.type === "watch");

  it("tells the server the systems of the pages on screen and the sites listed, then everything once they go", async () => {
    const queryClient = testQueryClient();
    const pages = new Map([
      [dashboardPage, sitePage([makeMetric({ systemId: "sys-2" }), makeMetric({ systemId: "sys-1" })])],
      [sitePageQuery, sitePage([makeMetric({ systemId: "sys-3", siteId: "site-1" })])],
    ]);
    const view = render(
      <QueryClientProvider client={queryClient}>
        <ShowingPages pages={pages} />
      </QueryClientProvider>,
    );
    connectLive("tok");
    const socket = FakeWebSocket.instances[0];
    act(() => socket?.serverOpens());
    // Watches go at most one per 1.5 s (the server closes a socket that floods it).
    await vi.waitFor(
      () =>
        expect(watchesSent(socket).at(-1)).toEqual({
          type: "watch",
          data: { systemIds: ["sys-2", "sys-1"], siteIds: ["site-1"] },
        }),
      { timeout: 3000 },
    );
    // A page of other systems' news has the totals and the pages read again.
    queryClient.setQueryData(dashboardKeys.summary(), makeSummary());
    act(() => socket?.serverSends({ type: "systems_updated", data: { count: 98 } }));
    expect(queryClient.getQueryState(dashboardKeys.summary())?.isInvalidated).toBe(true);

    view.unmount();
    await vi.waitFor(() => expect(watchesSent(socket).at(-1)).toEqual({ type: "watch", data: null }), {
      timeout: 3000,
    });
  });
});

describe("a page still loading", () => {
  it("watches everything until its systems are known", async () => {
    const queryClient = testQueryClient();
    const query: SystemsPageQuery = { page: 2, pageSize: 50, q: "", sort: "system", direction: "asc" };
    render(
      <QueryClientProvider client={queryClient}>
        <LoadingPage query={query} />
      </QueryClientProvider>,
    );
    await vi.waitFor(() =>
      expect(queryClient.getQueryCache().findAll({ queryKey: dashboardKeys.systems(query) })).toHaveLength(1),
    );
    // Told "nothing", the socket would miss the updates of the systems the page is about to show.
    expect(watchOfScreens(queryClient)).toBeNull();
    queryClient.setQueryData(dashboardKeys.systems(query), sitePage([makeMetric({ systemId: "sys-7" })]));
    expect(watchOfScreens(queryClient)).toEqual({ systemIds: ["sys-7"], siteIds: [] });
  });
});

function LoadingPage({ query }: { query: SystemsPageQuery }) {
  useQuery({ queryKey: dashboardKeys.systems(query), queryFn: () => new Promise<SystemsPage>(() => {}) });
  return null;
}

/** Screens showing these systems pages, with the live cache mounted. */
function ShowingPages({ pages }: { pages: Map<SystemsPageQuery, SystemsPage> }) {
  useLiveCacheSync();
  useQueries({
    queries: [...pages].map(([query, page]) => ({
      queryKey: dashboardKeys.systems(query),
      queryFn: () => page,
    })),
  });
  return null;
}
