import type { Alert, AlertsQuery } from "../../schema/api/alerts";
import type { AnalyticsRecord } from "../../schema/api/analytics";
import type { AuditEntry, AuditQuery } from "../../schema/api/audit";
import type { MonthlyEnergy } from "../../schema/api/exports";
import type { DashboardMetric } from "../../schema/api/metrics";
import { listPortfolioSiteLinks, listPortfolios } from "../data/portfolios";
import { listAttachedSystems, listSites } from "../data/sites";
import { type CsvRow, chunksOf, csvStream, isoWithOffset } from "../lib/csv";
import { fleetStoreOf } from "../lib/fleet-store";
import { alertPages } from "./alerts";
import { auditPages } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

// CSV views of the JSON answers: the same rows, times as ISO 8601 with offset, units in the headers.
// Each is a stream written a page at a time (see csvStream).

/** Rows per page read from D1 and per chunk written: bounds an export's memory whatever its length. */
export const EXPORT_PAGE_ROWS = 200;

async function* mapPages<T>(pages: AsyncIterable<T[]>, toRow: (item: T) => CsvRow) {
  for await (const page of pages) yield page.map(toRow);
}
function* mapChunks<T>(items: readonly T[], toRow: (item: T) => CsvRow) {
  for (const chunk of chunksOf(items, EXPORT_PAGE_ROWS)) yield chunk.map(toRow);
}

const ALERT_HEADER = [
  "id",
  "created at",
  "severity",
  "title",
  "message",
  "resolved",
  "resolved at",
  "provider",
  "code",
  "system",
  "site",
  "device serial",
  "lost energy (kWh)",
  "acknowledged at",
  "assigned to",
];
const alertRow = (a: Alert): CsvRow => [
  a.id,
  isoWithOffset(a.createdAt),
  a.severity,
  a.title,
  a.message,
  a.resolved,
  isoWithOffset(a.resolvedAt),
  a.provider,
  a.code,
  a.systemName,
  a.siteName,
  a.deviceSerial,
  a.lostEnergyKwh,
  isoWithOffset(a.acknowledgedAt),
  a.assignedTo,
];

/** Every alert the filters match, in the list's order (the JSON's `limit` does not apply). */
export const alertsCsv = (ctx: UserContext, query: AlertsQuery) =>
  csvStream(ALERT_HEADER, mapPages(alertPages(ctx, query, EXPORT_PAGE_ROWS), alertRow));

const auditRow = (entry: AuditEntry): CsvRow => [
  entry.id,
  isoWithOffset(entry.createdAt),
  entry.actorEmail,
  entry.action,
  entry.targetType,
  entry.targetId,
  entry.details === null ? null : JSON.stringify(entry.details),
  entry.ip,
];

/** Every entry the filters match, newest first: all of the JSON's numbered pages in one file. */
export const auditCsv = (ctx: UserContext, query: AuditQuery) =>
  csvStream(
    ["id", "time", "actor email", "action", "target type", "target id", "details (JSON)", "ip"],
    mapPages(auditPages(ctx, query, EXPORT_PAGE_ROWS), auditRow),
  );

/** The System Performance table's columns. */
export const metricsCsv = (metrics: readonly DashboardMetric[]) =>
  csvStream(
    [
      "system id",
      "system",
      "site",
      "provider",
      "current power (W)",
      "today (Wh)",
      "status",
      "inverters online",
      "inverters",
      "efficiency (%)",
      "performance ratio",
      "capacity (kW)",
      "data time",
    ],
    mapChunks(metrics, (m) => [
      m.systemId,
      m.stationName,
      m.siteName,
      m.provider,
      m.currentPowerW,
      m.todayGenerationWh,
      m.status,
      m.inverters.filter((inverter) => inverter.state === 1).length,
      m.inverters.length,
      m.efficiency,
      m.performanceRatio,
      m.capacity,
      isoWithOffset(m.dataTime, m.timezone),
    ]),
  );

/** One system's power readings or daily energy, times in the plant's zone. */
export function analyticsSeriesCsv(record: AnalyticsRecord, series: "power" | "energy") {
  if (series === "power") {
    return csvStream(
      ["time", "power (W)"],
      mapChunks(record.series?.power ?? [], (p) => [isoWithOffset(p.time, record.timezone), p.powerW]),
    );
  }
  return csvStream(
    ["date", "energy (Wh)", "expected (Wh)", "performance ratio"],
    mapChunks(record.series?.energy ?? [], (e) => [e.date, e.energyWh, e.expectedWh, e.performanceRatio]),
  );
}

export const monthlyEnergyCsv = (report: MonthlyEnergy) =>
  csvStream(
    ["month", "kind", "id", "name", "count", "energy (Wh)"],
    [
      [
        ...report.sites.map((s) => [report.month, "site", s.siteId, s.siteName, s.systemCount, s.energyWh]),
        ...report.portfolios.map((p) => [
          report.month,
          "portfolio",
          p.portfolioId,
          p.portfolioName,
          p.siteCount,
          p.energyWh,
        ]),
      ],
    ],
  );

/**
 * Energy per site and portfolio over one month: the fleet store sums each system's plant-local
 * days; D1 says which site each system belongs to and which sites each portfolio holds.
 */
export async function monthlyEnergy(ctx: UserContext, month: string): Promise<MonthlyEnergy> {
  const org = authorizeOrgAction(ctx, "org:read");
  const orgId = org.user.orgId;
  const [siteRows, systems, portfolioRows, links, energy] = await Promise.all([
    listSites(ctx.db, orgId),
    listAttachedSystems(ctx.db, orgId),
    listPortfolios(ctx.db, orgId),
    listPortfolioSiteLinks(ctx.db, orgId),
    fleetStoreOf(org).monthlyEnergy(orgId, month),
  ]);
  const energyOf = new Map(energy.map((row) => [row.systemId, row.energyWh]));
  const sites = siteRows.map((site) => {
    const own = systems.filter((system) => system.siteId === site.id);
    return {
      siteId: site.id,
      siteName: site.name,
      systemCount: own.length,
      energyWh: own.reduce((sum, system) => sum + (energyOf.get(system.id) ?? 0), 0),
    };
  });
  const siteEnergy = new Map(sites.map((site) => [site.siteId, site.energyWh]));
  const portfolios = portfolioRows.map((portfolio) => {
    const siteIds = links.filter((link) => link.portfolioId === portfolio.id).map((link) => link.siteId);
    return {
      portfolioId: portfolio.id,
      portfolioName: portfolio.name,
      siteCount: siteIds.length,
      energyWh: siteIds.reduce((sum, siteId) => sum + (siteEnergy.get(siteId) ?? 0), 0),
    };
  });
  return { month, sites, portfolios };
}
