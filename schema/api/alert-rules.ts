import { z } from "zod";
import { type AlertRuleName, alertRuleNames } from "../domain";

/** One detection rule's settings as an organisation holds them. */
export const alertRuleSchema = z.object({
  rule: z.enum(alertRuleNames),
  enabled: z.boolean(),
  /** Raise after the condition has lasted this long. */
  delayMinutes: z.number(),
  /** Resolve after the condition has been gone this long. */
  clearMinutes: z.number(),
  /** Underperformance: the window its energy is compared over. */
  windowMinutes: z.number().nullable(),
  /**
   * no_production: power below this % of capacity; underperformance: energy below this % of
   * expected; inverter_down: the others produce above this % of their share.
   */
  thresholdPct: z.number().nullable(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;
export const alertRulesSchema = z.object({ rules: z.array(alertRuleSchema) });
export type AlertRules = z.infer<typeof alertRulesSchema>;

/** The defaults of the detection issue; an organisation's stored rows override them. */
export const defaultAlertRules: Record<AlertRuleName, AlertRule> = {
  communication_lost: {
    rule: "communication_lost",
    enabled: true,
    delayMinutes: 60,
    clearMinutes: 15,
    windowMinutes: null,
    thresholdPct: null,
  },
  no_production: {
    rule: "no_production",
    enabled: true,
    delayMinutes: 30,
    clearMinutes: 15,
    windowMinutes: null,
    thresholdPct: 1,
  },
  underperformance: {
    rule: "underperformance",
    enabled: true,
    delayMinutes: 0,
    clearMinutes: 15,
    windowMinutes: 120,
    thresholdPct: 80,
  },
  inverter_down: {
    rule: "inverter_down",
    enabled: true,
    delayMinutes: 30,
    clearMinutes: 15,
    windowMinutes: null,
    thresholdPct: 5,
  },
  vendor_alarm: {
    rule: "vendor_alarm",
    enabled: true,
    delayMinutes: 0,
    clearMinutes: 0,
    windowMinutes: null,
    thresholdPct: null,
  },
};

const minutes = z.number().int().min(0).max(1440);
const common = {
  enabled: z.boolean().optional(),
  delayMinutes: minutes.optional(),
  clearMinutes: minutes.optional(),
};
const pct = z.number().min(0).max(100);

export const alertRulePatchSchema = z.discriminatedUnion("rule", [
  z.strictObject({ rule: z.literal("communication_lost"), ...common }),
  z.strictObject({ rule: z.literal("no_production"), ...common, thresholdPct: pct.optional() }),
  z.strictObject({
    rule: z.literal("underperformance"),
    ...common,
    windowMinutes: z.number().int().min(15).max(1440).optional(),
    thresholdPct: pct.optional(),
  }),
  z.strictObject({ rule: z.literal("inverter_down"), ...common, thresholdPct: pct.optional() }),
  z.strictObject({ rule: z.literal("vendor_alarm"), enabled: z.boolean().optional() }),
]);
export type AlertRulePatch = z.infer<typeof alertRulePatchSchema>;

export const alertRulesPatchSchema = z
  .strictObject({ rules: z.array(alertRulePatchSchema).min(1).max(alertRuleNames.length) })
  .refine((body) => new Set(body.rules.map((r) => r.rule)).size === body.rules.length, {
    error: "Each rule may appear once",
    path: ["rules"],
  });
export type AlertRulesPatch = z.infer<typeof alertRulesPatchSchema>;
