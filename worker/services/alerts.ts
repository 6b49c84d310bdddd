import { DateTime } from "luxon";
import {
  type Alert,
  type AlertFacts,
  type AlertSummary,
  type AlertsQuery,
  alertFactsSchema,
} from "../../schema/api/alerts";
import type { AlertEventKind } from "../../schema/domain";
import { type AlertEventRow, insertAlertEvent, listAlertEvents } from "../data/alert-events";
import {
  type AlertCursor,
  type AlertRowWithNames,
  alertCursorOf,
  countOpenAlerts,
  findAlert,
  listAlerts,
  readAlertsPage,
  setAlertAcknowledged,
  setAlertAssignee,
  setAlertResolved,
} from "../data/alerts";
import { loadTariffBook, type TariffBook } from "../data/tariffs";
import { findOrgMember } from "../data/users";
import { priceEnergy, roundMoney } from "../domain/losses/money";
import { type BatchStatement, runBatch } from "../lib/db";
import { invalidField, notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { type AuditAction, auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Stored facts as the API gives them; anything unreadable (a row from an older rule) is null. */
function factsOf(json: string | null): AlertFacts | null {
  if (json === null) return null;
  try {
    const parsed = alertFactsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The lost energy's value at the price in force on the alert's first day at its site. */
function lostValueOf(row: AlertRowWithNames, prices: TariffBook) {
  if (row.lost_energy_wh === null) return { lostValue: null, currency: null };
  const date = DateTime.fromMillis(row.created_at, { zone: row.timezone ?? "UTC" }).toISODate() ?? "";
  const price = prices.priceOn(row.site_id, date);
  if (!price) return { lostValue: null, currency: null };
  return {
    lostValue: roundMoney(priceEnergy(Math.round(row.lost_energy_wh) / 1000, price, price.currency)),
    currency: price.currency,
  };
}

const toAlert = (row: AlertRowWithNames, events: AlertEventRow[], prices: TariffBook): Alert => ({
  id: row.id,
  title: row.title,
  message: row.message,
  facts: factsOf(row.facts),
  severity: row.severity,
  createdAt: new Date(row.created_at).toISOString(),
  resolved: row.resolved === 1,
  resolvedAt: iso(row.resolved_at),
  provider: row.provider,
  code: row.code,
  deviceSerial: row.device_serial,
  systemId: row.system_id,
  systemName: row.system_name,
  siteId: row.site_id,
  siteName: row.site_name,
  rule: row.rule,
  lostEnergyKwh: row.lost_energy_wh === null ? null : Math.round(row.lost_energy_wh) / 1000,
  ...lostValueOf(row, prices),
  acknowledgedAt: iso(row.acknowledged_at),
  acknowledgedBy: row.acknowledged_by,
  assignedTo: row.assigned_to,
  history: events.map((e) => ({
    kind: e.kind,
    at: new Date(e.created_at).toISOString(),
    actorId: e.actor_id,
    actorName: e.actor_name,
    rule: e.rule,
    note: e.note,
    facts: factsOf(e.facts),
  })),
});

function alertsWithHistory(rows: AlertRowWithNames[], events: AlertEventRow[], prices: TariffBook): Alert[] {
  const byAlert = new Map<string, AlertEventRow[]>();
  for (const event of events) {
    const list = byAlert.get(event.alert_id) ?? [];
    list.push(event);
    byAlert.set(event.alert_id, list);
  }
  return rows.map((row) => toAlert(row, byAlert.get(row.id) ?? [], prices));
}

/** The prices of the alerts' sites and the organisation's default. */
const pricesOf = (org: OrgContext, rows: AlertRowWithNames[]) =>
  loadTariffBook(org.db, org.user.orgId, [
    ...new Set(rows.flatMap((row) => (row.site_id === null ? [] : [row.site_id]))),
  ]);

async function withHistory(org: OrgContext, rows: AlertRowWithNames[]): Promise<Alert[]> {
  const [events, prices] = await Promise.all([
    listAlertEvents(
      org.db,
      org.user.orgId,
      rows.map((r) => r.id),
    ),
    pricesOf(org, rows),
  ]);
  return alertsWithHistory(rows, events, prices);
}

/** A page of alerts with their history: `pageSize` of them (`limit` unless given) after the pages before. */
export async function getAlerts(
  ctx: UserContext,
  query: AlertsQuery,
): Promise<{ items: Alert[]; page: number; pageCount: number; total: number }> {
  const org = authorizeOrgAction(ctx, "org:read");
  const pageSize = query.pageSize ?? query.limit;
  const { rows, total, events } = await readAlertsPage(org.db, org.user.orgId, query, {
    limit: pageSize,
    offset: (query.page - 1) * pageSize,
  });
  return {
    items: alertsWithHistory(rows, events, await pricesOf(org, rows)),
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
    total,
  };
}

/**
 * Every alert the filters match (the list's order, no limit), one page of `pageSize` at a time
 * read by keyset from D1; without history, which the CSV does not carry.
 */
export function alertPages(ctx: UserContext, query: AlertsQuery, pageSize: number): AsyncGenerator<Alert[]> {
  // Authorised now, before a response starts, not when the first page is read.
  const org = authorizeOrgAction(ctx, "org:read");
  return (async function* () {
    let after: AlertCursor | null = null;
    let prices: TariffBook | null = null;
    for (;;) {
      const rows = await listAlerts(org.db, org.user.orgId, query, { limit: pageSize, after });
      if (rows.length > 0) {
        prices ??= await loadTariffBook(org.db, org.user.orgId);
        const book = prices;
        yield rows.map((row) => toAlert(row, [], book));
      }
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = alertCursorOf(last);
    }
  })();
}

export async function getAlertSummary(ctx: UserContext): Promise<AlertSummary> {
  const org = authorizeOrgAction(ctx, "org:read");
  const counts = await countOpenAlerts(org.db, org.user.orgId);
  const of = (severity: string) => counts.find((c) => c.severity === severity)?.n ?? 0;
  return {
    open: counts.reduce((n, c) => n + c.n, 0),
    critical: of("critical"),
    warning: of("warning"),
    info: of("info"),
  };
}

/** Tells the organisation's sockets the open count changed; a failure leaves the change stored. */
export async function publishAlertCount(org: OrgContext): Promise<void> {
  const summary = await getAlertSummary(org);
  try {
    await fleetStoreOf(org).publish(org.user.orgId, [
      { type: "alerts_changed", data: { openCount: summary.open } },
    ]);
  } catch {
    // Live clients catch up on their next refresh.
  }
}

/** One change by a member: the update, its history entry and audit entry in one batch. */
async function changeAlert(
  ctx: UserContext,
  alertId: string,
  change: {
    kind: AlertEventKind;
    audit: AuditAction;
    note?: string;
    statement: (org: OrgContext) => BatchStatement;
    details?: Record<string, unknown>;
  },
): Promise<Alert> {
  const org = authorizeOrgAction(ctx, "alerts:manage");
  const alert = await findAlert(org.db, org.user.orgId, alertId);
  if (!alert) throw notFound("alert", "Alert");
  await runBatch(org.db, [
    change.statement(org),
    insertAlertEvent(org.db, {
      orgId: org.user.orgId,
      alertId,
      kind: change.kind,
      actorId: org.user.id,
      rule: null,
      note: change.note || null,
      at: org.now,
    }),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: change.audit,
      targetType: "alert",
      targetId: alertId,
      details: { title: alert.title, ...change.details },
    }),
  ]);
  if (change.kind === "resolved" || change.kind === "reopened") await publishAlertCount(org);
  const updated = await findAlert(org.db, org.user.orgId, alertId);
  if (!updated) throw notFound("alert", "Alert");
  const [answer] = await withHistory(org, [updated]);
  return answer as Alert;
}

/** Resolves or reopens an alert by hand; the organisation's sockets hear the new count. */
export function updateAlert(
  ctx: UserContext,
  alertId: string,
  resolved: boolean,
  note?: string,
): Promise<Alert> {
  return changeAlert(ctx, alertId, {
    kind: resolved ? "resolved" : "reopened",
    audit: resolved ? "alert.resolve" : "alert.reopen",
    note,
    statement: (org) => setAlertResolved(org.db, org.user.orgId, alertId, resolved, org.user.id, org.now),
  });
}

export function acknowledgeAlert(ctx: UserContext, alertId: string, note?: string): Promise<Alert> {
  return changeAlert(ctx, alertId, {
    kind: "acknowledged",
    audit: "alert.acknowledge",
    note,
    statement: (org) => setAlertAcknowledged(org.db, org.user.orgId, alertId, org.user.id, org.now),
  });
}

/** Assigns an alert to a member of the same organisation (or to nobody). */
export async function assignAlert(ctx: UserContext, alertId: string, userId: string | null): Promise<Alert> {
  const org = authorizeOrgAction(ctx, "alerts:manage");
  if (userId !== null && !(await findOrgMember(org.db, org.user.orgId, userId))) {
    throw invalidField("userId", "Assign the alert to a member of your organisation");
  }
  return changeAlert(ctx, alertId, {
    kind: "assigned",
    audit: "alert.assign",
    statement: () => setAlertAssignee(org.db, org.user.orgId, alertId, userId),
    details: { assignedTo: userId },
  });
}
