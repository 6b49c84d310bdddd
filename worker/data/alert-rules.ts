import { eq } from "drizzle-orm";
import { type AlertRule, defaultAlertRules } from "../../schema/api/alert-rules";
import type { AlertRuleName } from "../../schema/domain";
import { alertRules } from "../../schema/tables";
import type { Db } from "../lib/db";

const listAlertRuleRows = (db: Db, orgId: string) =>
  db.select().from(alertRules).where(eq(alertRules.orgId, orgId));

/** The organisation's rules: its stored settings over the defaults. */
export async function loadAlertRules(db: Db, orgId: string): Promise<Record<AlertRuleName, AlertRule>> {
  const rules = { ...defaultAlertRules };
  for (const row of await listAlertRuleRows(db, orgId)) {
    rules[row.rule] = {
      rule: row.rule,
      enabled: row.enabled,
      delayMinutes: row.delayMinutes,
      clearMinutes: row.clearMinutes,
      windowMinutes: row.windowMinutes,
      thresholdPct: row.thresholdPct,
    };
  }
  return rules;
}

export const upsertAlertRule = (db: Db, orgId: string, rule: AlertRule, now: number) => {
  const values = {
    enabled: rule.enabled,
    delayMinutes: rule.delayMinutes,
    clearMinutes: rule.clearMinutes,
    windowMinutes: rule.windowMinutes,
    thresholdPct: rule.thresholdPct,
    updatedAt: now,
  };
  return db
    .insert(alertRules)
    .values({ orgId, rule: rule.rule, ...values })
    .onConflictDoUpdate({ target: [alertRules.orgId, alertRules.rule], set: values });
};

/**
 * SQL condition: the organisation bound at its one `?` has the vendor_alarm rule on (it is on
 * without a row). The sync's alarm writes test it in the same statement, with no read before.
 */
export const VENDOR_ALARMS_ENABLED = `NOT EXISTS (SELECT 1 FROM alert_rules r
  WHERE r.org_id = ? AND r.rule = 'vendor_alarm' AND r.enabled = 0)`;
