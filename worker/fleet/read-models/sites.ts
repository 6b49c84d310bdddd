import type { ProviderId } from "../../../schema/api/providers";
import {
  type SiteCountsAnswer,
  type SiteFacet,
  type SiteFilter,
  type SiteGroup,
  type SiteGroupKey,
  type SiteListQuery,
  type SiteMap,
  type SiteSortKey,
  type StatusCounts,
  worstFirst,
} from "../../../schema/api/site-lists";
import type { EnhancedSite, Site, SiteStatus } from "../../../schema/api/sites";
import type { SiteListRows } from "../../data/site-lists";
import { type SiteLive, type SystemView, siteLive, toEnhancedSite, toSite } from "../../domain/sites";
import { yieldTurn } from "../../lib/yield-turn";
import { sortedPositions } from "./ordering";

/*
 * The organisation's sites as the lists read them: each site's live totals (from the store's live
 * values), its performance against the weather (today's energy over the irradiance-based
 * expectation of its systems), its open alerts and portfolios, built once per read model; orders
 * are sorted once per key, so a page of a 20,000-site fleet is a filter and a slice.
 */

/** The live values of a system as the store holds them. */
export interface StoredLive {
  powerW: number | null;
  energyTodayWh: number | null;
  dataTime: number | null;
}

/** A system's energy today and what the weather let it expect (from the dashboard's read model). */
export interface ExpectedEnergy {
  actualWh: number;
  expectedWh: number | null;
}

export interface SiteEntry {
  row: SiteListRows["sites"][number];
  systems: SystemView[];
  live: SiteLive;
  /** Today's energy over its expectation, over systems with one; null without. */
  performanceRatio: number | null;
  expectedWh: number;
  openAlerts: number;
  portfolioIds: string[];
  providers: ProviderId[];
  /** Lower-cased name, addresses and the systems' names and vendor ids. */
  searchText: string;
  /** Lower-cased country and label; "" when none. */
  country: string;
  label: string;
}

export interface SitesIndex {
  /** In the list's own order: name, then id, as stored. */
  entries: SiteEntry[];
  /** Each entry's position by name, language-aware (ties by id). */
  nameRank: Int32Array;
  orders: Map<string, Int32Array>;
  portfolioNames: Map<string, string>;
}

/** The list's extra figures beside a site's fields. */
export interface SiteListFigures {
  performanceRatio: number | null;
  openAlerts: number;
  portfolioIds: string[];
}
export type SiteListItem = Site & SiteListFigures;
export type EnhancedSiteListItem = EnhancedSite & SiteListFigures;

const names = new Intl.Collator("en", { sensitivity: "base", numeric: true });
const NONE = "-";
/** Sites between turns of the event loop: 1,000 took up to ~100 ms while a 2,000-plant account was listed. */
const ENTRIES_PER_TURN = 250;

/** Each zone's local midnight (at the read model's time), computed once per zone. */
function midnights() {
  const cache = new Map<string, number>();
  return (zone: string, compute: () => number) => {
    let value = cache.get(zone);
    if (value === undefined) {
      value = compute();
      cache.set(zone, value);
    }
    return value;
  };
}

export async function buildSitesIndex(
  rows: SiteListRows,
  live: ReadonlyMap<string, StoredLive>,
  expected: ReadonlyMap<string, ExpectedEnergy>,
  now: number,
): Promise<SitesIndex> {
  const systemsBySite = new Map<string, SystemView[]>();
  for (const record of rows.systems) {
    if (record.siteId === null) continue;
    const values = live.get(record.id);
    const view: SystemView = {
      ...record,
      powerW: values?.powerW ?? null,
      energyTodayWh: values?.energyTodayWh ?? null,
      dataTime: values?.dataTime ?? null,
    };
    const list = systemsBySite.get(record.siteId);
    if (list) list.push(view);
    else systemsBySite.set(record.siteId, [view]);
  }
  const portfoliosBySite = new Map<string, string[]>();
  const portfolioNames = new Map<string, string>();
  for (const link of rows.portfolioLinks) {
    portfolioNames.set(link.portfolioId, link.name);
    const list = portfoliosBySite.get(link.siteId);
    if (list) list.push(link.portfolioId);
    else portfoliosBySite.set(link.siteId, [link.portfolioId]);
  }
  const midnight = midnights();
  const entries: SiteEntry[] = [];
  for (const [i, row] of rows.sites.entries()) {
    if (i > 0 && i % ENTRIES_PER_TURN === 0) await yieldTurn();
    const systems = systemsBySite.get(row.id) ?? [];
    let actualWh = 0;
    let expectedWh = 0;
    let openAlerts = 0;
    const providers = new Set<ProviderId>();
    if (row.provider) providers.add(row.provider);
    const text = [row.name, row.address, row.location ?? ""];
    for (const system of systems) {
      providers.add(system.provider);
      text.push(system.name, system.providerSystemId);
      openAlerts += rows.openAlerts.get(system.id) ?? 0;
      const energy = expected.get(system.id);
      if (energy?.expectedWh) {
        actualWh += energy.actualWh;
        expectedWh += energy.expectedWh;
      }
    }
    entries.push({
      row,
      systems,
      live: siteLive(row, systems, now, midnight),
      performanceRatio: expectedWh > 0 ? actualWh / expectedWh : null,
      expectedWh,
      openAlerts,
      portfolioIds: portfoliosBySite.get(row.id) ?? [],
      providers: [...providers],
      searchText: text.join("\u0000").toLocaleLowerCase(),
      country: (row.country ?? "").trim().toLocaleLowerCase(),
      label: (row.label ?? "").trim().toLocaleLowerCase(),
    });
  }
  await yieldTurn();
  const byName = entries.map((_, i) => i);
  byName.sort(
    (a, b) =>
      names.compare((entries[a] as SiteEntry).row.name, (entries[b] as SiteEntry).row.name) ||
      ((entries[a] as SiteEntry).row.id < (entries[b] as SiteEntry).row.id ? -1 : 1),
  );
  const nameRank = new Int32Array(entries.length);
  byName.forEach((entry, position) => {
    nameRank[entry] = position;
  });
  const index: SitesIndex = { entries, nameRank, orders: new Map(), portfolioNames };
  // The screens' first order, sorted with the model.
  orderOf(index, "pr", "asc");
  return index;
}

/**
 * The index with each site's open alerts counted again (`openAlerts` by system) and everything
 * else kept: alerts come and go all day, and the whole model takes seconds at 20,000 sites.
 */
export function withOpenAlerts(index: SitesIndex, openAlerts: Map<string, number>): SitesIndex {
  const entries = index.entries.map((entry) => ({
    ...entry,
    openAlerts: entry.systems.reduce((sum, system) => sum + (openAlerts.get(system.id) ?? 0), 0),
  }));
  const orders = new Map([...index.orders].filter(([name]) => !name.startsWith("alerts|")));
  return { ...index, entries, orders };
}

/** What a key sorts by; null (an unknown PR) sorts last in either direction. */
function sortValue(entry: SiteEntry, key: Exclude<SiteSortKey, "name">): number | null {
  switch (key) {
    case "pr":
      return entry.performanceRatio;
    case "power":
      return entry.live.currentPowerW;
    case "today":
      return entry.live.todayEnergyWh;
    case "alerts":
      return entry.openAlerts;
    case "capacity":
      return entry.live.capacityKw;
  }
}

/** Entry positions by key and direction, a total order (ties by name, then id). */
function orderOf(index: SitesIndex, key: SiteSortKey, direction: "asc" | "desc"): Int32Array {
  const name = `${key}|${direction}`;
  const cached = index.orders.get(name);
  if (cached) return cached;
  const positions = sortedPositions(
    index.entries,
    index.nameRank,
    key === "name" ? null : (entry) => sortValue(entry, key),
    direction,
  );
  index.orders.set(name, positions);
  return positions;
}

type FilterName = "q" | "status" | "provider" | "portfolio" | "country" | "label" | "alerts";

/** A filter's test of one entry, or null when the filter is not set. */
function tests(filter: SiteFilter): [FilterName, (entry: SiteEntry) => boolean][] {
  const list: [FilterName, (entry: SiteEntry) => boolean][] = [];
  const needle = filter.q.toLocaleLowerCase();
  if (needle) list.push(["q", (entry) => entry.searchText.includes(needle)]);
  const statuses = filter.status;
  if (statuses && statuses.length > 0) list.push(["status", (entry) => statuses.includes(entry.live.status)]);
  const providers = filter.provider;
  if (providers && providers.length > 0) {
    list.push(["provider", (entry) => entry.providers.some((provider) => providers.includes(provider))]);
  }
  const portfolio = filter.portfolio;
  if (portfolio) list.push(["portfolio", (entry) => entry.portfolioIds.includes(portfolio)]);
  if (filter.country) {
    const country = filter.country === NONE ? "" : filter.country.toLocaleLowerCase();
    list.push(["country", (entry) => entry.country === country]);
  }
  if (filter.label) {
    const label = filter.label === NONE ? "" : filter.label.toLocaleLowerCase();
    list.push(["label", (entry) => entry.label === label]);
  }
  if (filter.alerts) {
    const open = filter.alerts === "open";
    list.push(["alerts", (entry) => entry.openAlerts > 0 === open]);
  }
  return list;
}

const matchesAll = (checks: ReturnType<typeof tests>) => (entry: SiteEntry) =>
  checks.every(([, test]) => test(entry));

const figures = (entry: SiteEntry): SiteListFigures => ({
  performanceRatio: entry.performanceRatio,
  openAlerts: entry.openAlerts,
  portfolioIds: entry.portfolioIds,
});

export interface SitesPage<T> {
  items: T[];
  total: number;
  page: number;
  pageCount: number;
}

/** The positions of the entries matching the filter, in the query's order. */
function matching(index: SitesIndex, query: SiteListQuery): ArrayLike<number> {
  const order: ArrayLike<number> = query.sort
    ? orderOf(index, query.sort, query.direction ?? worstFirst[query.sort])
    : query.direction === "desc"
      ? Int32Array.from(index.entries, (_, i) => index.entries.length - 1 - i)
      : Int32Array.from(index.entries, (_, i) => i);
  const checks = tests(query);
  if (checks.length === 0) return order;
  const matches = matchesAll(checks);
  const found: number[] = [];
  for (let i = 0; i < order.length; i++) {
    const position = order[i] as number;
    if (matches(index.entries[position] as SiteEntry)) found.push(position);
  }
  return found;
}

function pageOf<T>(index: SitesIndex, query: SiteListQuery, item: (entry: SiteEntry) => T): SitesPage<T> {
  const positions = matching(index, query);
  const start = (query.page - 1) * query.pageSize;
  const end = Math.min(positions.length, start + query.pageSize);
  const items: T[] = [];
  for (let i = start; i < end; i++) items.push(item(index.entries[positions[i] as number] as SiteEntry));
  return {
    items,
    total: positions.length,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(positions.length / query.pageSize)),
  };
}

export const sitesPage = (index: SitesIndex, query: SiteListQuery): SitesPage<SiteListItem> =>
  pageOf(index, query, (entry) => ({ ...toSite(entry.row, entry.systems, entry.live), ...figures(entry) }));

export const enhancedSitesPage = (
  index: SitesIndex,
  query: SiteListQuery,
  now: number,
): SitesPage<EnhancedSiteListItem> =>
  pageOf(index, query, (entry) => ({ ...toEnhancedSite(entry.row, entry.systems, now), ...figures(entry) }));

const emptyStatusCounts = (): StatusCounts => ({ online: 0, offline: 0, fault: 0 });

function facetList(counts: Map<string, number>, name: (value: string) => string | null): SiteFacet[] {
  return [...counts]
    .map(([value, count]) => ({ value, name: name(value), count }))
    .sort((a, b) => (a.name === null ? 1 : b.name === null ? -1 : names.compare(a.name, b.name)));
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** Counts per status and per facet value, each over the entries every other filter lets through. */
export function siteCounts(index: SitesIndex, filter: SiteFilter): SiteCountsAnswer {
  const checks = tests(filter);
  const byStatus = emptyStatusCounts();
  const providers = new Map<string, number>();
  const countries = new Map<string, number>();
  const portfolios = new Map<string, number>();
  const labels = new Map<string, number>();
  /** The display form of each lower-cased country and label (the first seen). */
  const shown = new Map<string, string>();
  let total = 0;
  let withOpenAlerts = 0;
  let systemCount = 0;
  let capacityKw = 0;
  for (const entry of index.entries) {
    // Which filters this entry fails: it counts for a facet when it fails none but that facet's own.
    const failed: FilterName[] = [];
    for (const [name, test] of checks) {
      if (!test(entry)) {
        failed.push(name);
        if (failed.length > 1) break;
      }
    }
    if (failed.length > 1) continue;
    const only = failed[0];
    if (only === undefined) {
      total++;
      if (entry.openAlerts > 0) withOpenAlerts++;
      systemCount += entry.systems.length;
      capacityKw += entry.live.capacityKw;
    }
    if (only === undefined || only === "status") byStatus[entry.live.status]++;
    if (only === undefined || only === "provider") for (const p of entry.providers) bump(providers, p);
    if (only === undefined || only === "portfolio") for (const p of entry.portfolioIds) bump(portfolios, p);
    if (only === undefined || only === "country") {
      bump(countries, entry.country || NONE);
      if (entry.country && !shown.has(`c|${entry.country}`)) {
        shown.set(`c|${entry.country}`, (entry.row.country ?? "").trim());
      }
    }
    if (only === undefined || only === "label") {
      bump(labels, entry.label || NONE);
      if (entry.label && !shown.has(`l|${entry.label}`)) {
        shown.set(`l|${entry.label}`, (entry.row.label ?? "").trim());
      }
    }
  }
  const display = (prefix: string) => (value: string) =>
    value === NONE ? null : (shown.get(`${prefix}|${value}`) ?? value);
  return {
    total,
    byStatus,
    withOpenAlerts,
    systemCount,
    capacityKw,
    providers: facetList(providers, (value) => value),
    countries: facetList(countries, display("c")).map((facet) => ({
      ...facet,
      value: facet.name ?? NONE,
    })),
    portfolios: facetList(portfolios, (value) => index.portfolioNames.get(value) ?? value),
    labels: facetList(labels, display("l")).map((facet) => ({ ...facet, value: facet.name ?? NONE })),
  };
}

interface GroupTotals {
  name: string | null;
  siteCount: number;
  byStatus: StatusCounts;
  capacityKw: number;
  powerW: number;
  todayWh: number;
  actualWh: number;
  expectedWh: number;
  openAlerts: number;
}

/** Where an entry belongs when grouped by `by`: [value, name] pairs (a site may be in several portfolios). */
function groupsOf(index: SitesIndex, entry: SiteEntry, by: SiteGroupKey): [string, string | null][] {
  switch (by) {
    case "portfolio":
      return entry.portfolioIds.length === 0
        ? [[NONE, null]]
        : entry.portfolioIds.map((id) => [id, index.portfolioNames.get(id) ?? id]);
    case "provider":
      return entry.providers.length === 0 ? [[NONE, null]] : entry.providers.map((p) => [p, p]);
    case "country":
      return [entry.country ? [entry.country, (entry.row.country ?? "").trim()] : [NONE, null]];
    case "label":
      return [entry.label ? [entry.label, (entry.row.label ?? "").trim()] : [NONE, null]];
  }
}

/** The matching sites grouped, with each group's totals; the group without a value last. */
export function siteGroups(index: SitesIndex, filter: SiteFilter, by: SiteGroupKey): SiteGroup[] {
  const matches = matchesAll(tests(filter));
  const groups = new Map<string, GroupTotals>();
  for (const entry of index.entries) {
    if (!matches(entry)) continue;
    for (const [key, name] of groupsOf(index, entry, by)) {
      let group = groups.get(key);
      if (!group) {
        group = {
          name,
          siteCount: 0,
          byStatus: emptyStatusCounts(),
          capacityKw: 0,
          powerW: 0,
          todayWh: 0,
          actualWh: 0,
          expectedWh: 0,
          openAlerts: 0,
        };
        groups.set(key, group);
      }
      group.siteCount++;
      group.byStatus[entry.live.status]++;
      group.capacityKw += entry.live.capacityKw;
      group.powerW += entry.live.currentPowerW;
      group.todayWh += entry.live.todayEnergyWh;
      if (entry.expectedWh > 0 && entry.performanceRatio !== null) {
        group.actualWh += entry.performanceRatio * entry.expectedWh;
        group.expectedWh += entry.expectedWh;
      }
      group.openAlerts += entry.openAlerts;
    }
  }
  return [...groups]
    .map(([key, group]) => ({
      // Countries and labels filter by what is shown (case aside).
      value: key === NONE || by === "portfolio" || by === "provider" ? key : (group.name ?? NONE),
      name: group.name,
      siteCount: group.siteCount,
      byStatus: group.byStatus,
      capacityKw: group.capacityKw,
      powerW: group.powerW,
      todayWh: group.todayWh,
      performanceRatio: group.expectedWh > 0 ? group.actualWh / group.expectedWh : null,
      openAlerts: group.openAlerts,
    }))
    .sort((a, b) => (a.name === null ? 1 : b.name === null ? -1 : names.compare(a.name, b.name)));
}

const fourDecimals = (degrees: number) => Math.round(degrees * 10_000) / 10_000;

/** Every matching site's place and status, as columns. */
export function siteMap(index: SitesIndex, filter: SiteFilter): SiteMap {
  const matches = matchesAll(tests(filter));
  const map: SiteMap = { total: 0, ids: [], latitudes: [], longitudes: [], statuses: [] };
  for (const entry of index.entries) {
    if (!matches(entry)) continue;
    map.total++;
    map.ids.push(entry.row.id);
    map.latitudes.push(fourDecimals(entry.row.latitude));
    map.longitudes.push(fourDecimals(entry.row.longitude));
    map.statuses.push(entry.live.status as SiteStatus);
  }
  return map;
}
