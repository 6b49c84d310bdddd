import type { AuditEntry, AuditPage, AuditQuery } from "../../schema/api/audit";
import {
  type AuditCondition,
  type AuditCursor,
  type AuditFilter,
  type AuditInsert,
  type AuditRow,
  insertAuditEntry,
  insertAuditEntryIf,
  listAuditEntries,
  listAuditEntriesAfter,
} from "../data/audit";
import type { Db } from "../lib/db";
import { invalidInput, notFound } from "../lib/errors";
import { requireAction } from "./authorization";
import type { ServiceContext, UserContext } from "./context";

/** Audit actions written so far; later features add theirs here. */
export type AuditAction =
  | "auth.register"
  | "auth.login"
  | "auth.login_failed"
  | "auth.logout"
  | "auth.sessions_end"
  | "auth.password_change"
  | "auth.password_reset_request"
  | "auth.password_reset"
  | "auth.email_verify"
  | "auth.email_verification_send"
  | "auth.unverified_account_remove"
  | "org.create"
  | "invite.create"
  | "invite.accept"
  | "invite.revoke"
  | "member.role_change"
  | "member.permissions_change"
  | "member.remove"
  | "preferences.update"
  | "credentials.save"
  | "credentials.delete"
  | "credentials.sync"
  | "meteronline.import"
  | "alert.resolve"
  | "alert.reopen"
  | "alert.acknowledge"
  | "alert.assign"
  | "alert_rules.update"
  | "preferences.unsubscribe"
  | "site.create"
  | "site.update"
  | "site.delete"
  | "site.system_attach"
  | "site.system_detach"
  | "site.create_from_plant"
  | "site.merge"
  | "site.split"
  | "site.tariff_set"
  | "site.tariff_clear"
  | "system.update"
  | "organization.settings_update"
  | "organization.tariff_set"
  | "portfolio.create"
  | "portfolio.update"
  | "portfolio.delete"
  | "portfolio.sites_add"
  | "portfolio.site_remove"
  | "api_key.create"
  | "api_key.revoke"
  | "api_key.write";

export interface AuditEvent extends Omit<AuditInsert, "action" | "ip"> {
  action: AuditAction;
}

/** The insert for one audit entry, to be batched with the change it records. */
export const auditEntry = (ctx: ServiceContext, event: AuditEvent, db: Db = ctx.db) =>
  insertAuditEntry(db, { ...event, actorEmail: event.actorEmail ?? null, ip: ctx.ip }, ctx.now);

/** An audit entry written only if `condition` holds once the batch's guarded change has run. */
export const auditEntryIf = (ctx: ServiceContext, event: AuditEvent, condition: AuditCondition) =>
  insertAuditEntryIf(
    ctx.db,
    { ...event, actorEmail: event.actorEmail ?? null, ip: ctx.ip },
    ctx.now,
    condition,
  );

/** Whose entries and which: superAdmin reads any organisation's, a member only their own. */
function auditFilterOf(ctx: UserContext, query: AuditQuery): AuditFilter {
  requireAction(ctx, "audit:read");
  let orgId: string | null;
  if (ctx.user.role === "superAdmin") {
    orgId = query.orgId ?? null;
  } else {
    if (ctx.user.orgId === null) throw notFound("organisation", "Organisation");
    // Asking for another organisation's log reveals nothing: it answers as if absent.
    if (query.orgId !== undefined && query.orgId !== ctx.user.orgId)
      throw notFound("organisation", "Organisation");
    orgId = ctx.user.orgId;
  }
  const fromMs = query.from ? Date.parse(query.from) : undefined;
  const toMs = query.to ? Date.parse(query.to) : undefined;
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
    throw invalidInput("Invalid input", [{ path: ["from"], message: "from must not be after to" }]);
  }
  return {
    orgId,
    action: query.action,
    actorEmail: query.actorEmail,
    targetType: query.targetType,
    fromMs,
    toMs,
  };
}

const toEntry = (row: AuditRow): AuditEntry => ({ ...row, createdAt: new Date(row.createdAt).toISOString() });

export async function readAuditLog(ctx: UserContext, query: AuditQuery): Promise<AuditPage> {
  const { rows, total } = await listAuditEntries(ctx.db, auditFilterOf(ctx, query), {
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { logs: rows.map(toEntry), total, page: query.page, pageSize: query.pageSize };
}

/**
 * Every entry the filters match (all numbered pages, newest first), `pageSize` at a time read by
 * keyset from D1. Authorised when called, before a response starts.
 */
export function auditPages(
  ctx: UserContext,
  query: AuditQuery,
  pageSize: number,
): AsyncGenerator<AuditEntry[]> {
  const filter = auditFilterOf(ctx, query);
  return (async function* () {
    let after: AuditCursor | null = null;
    for (;;) {
      const rows = await listAuditEntriesAfter(ctx.db, filter, pageSize, after);
      if (rows.length > 0) yield rows.map(toEntry);
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = { createdAt: last.createdAt, id: last.id };
    }
  })();
}
