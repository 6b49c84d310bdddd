import type { AlertRule, AlertRules, AlertRulesPatch } from "../../schema/api/alert-rules";
import { type AlertRuleName, alertRuleNames } from "../../schema/domain";
import { loadAlertRules, upsertAlertRule } from "../data/alert-rules";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

const answer = (rules: Record<AlertRuleName, AlertRule>): AlertRules => ({
  rules: alertRuleNames.map((name) => rules[name]),
});

export async function getAlertRules(ctx: UserContext): Promise<AlertRules> {
  const org = authorizeOrgAction(ctx, "org:read");
  return answer(await loadAlertRules(org.db, org.user.orgId));
}

/** Changes the named rules' settings (owners and engineers); unnamed fields keep their values. */
export async function updateAlertRules(ctx: UserContext, patch: AlertRulesPatch): Promise<AlertRules> {
  const org = authorizeOrgAction(ctx, "alerts:manage");
  const rules = await loadAlertRules(org.db, org.user.orgId);
  const changed = patch.rules.map(({ rule, ...fields }) => {
    rules[rule] = { ...rules[rule], ...fields };
    return rules[rule];
  });
  await org.db.batch([
    upsertAlertRule(org.db, org.user.orgId, changed[0] as AlertRule, org.now),
    ...changed.slice(1).map((rule) => upsertAlertRule(org.db, org.user.orgId, rule, org.now)),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "alert_rules.update",
      targetType: "alert_rules",
      targetId: org.user.orgId,
      details: { rules: patch.rules },
    }),
  ]);
  return answer(rules);
}
