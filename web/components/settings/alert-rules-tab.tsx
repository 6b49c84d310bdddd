import { useQuery } from "@tanstack/react-query";
import { Button, Switch } from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AlertRule, AlertRulePatch } from "../../../schema/api/alert-rules";
import { can } from "../../../schema/roles";
import { ApiRequestError } from "../../lib/api";
import { actorFromProfile } from "../../lib/permissions";
import { alertRulesQueryOptions, useUpdateAlertRulesMutation } from "../../lib/queries/alert-rules";
import { toast } from "../../lib/toast";
import { useCurrentProfile } from "../profile-context";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";

type NumberField = "delayMinutes" | "clearMinutes" | "windowMinutes" | "thresholdPct";
const numberFields: NumberField[] = ["delayMinutes", "clearMinutes", "windowMinutes", "thresholdPct"];

/** The limits PATCH /api/alert-rules takes (schema/api/alert-rules.ts), per field. */
const limits: Record<NumberField, { min: number; max: number; integer: boolean }> = {
  delayMinutes: { min: 0, max: 1440, integer: true },
  clearMinutes: { min: 0, max: 1440, integer: true },
  windowMinutes: { min: 15, max: 1440, integer: true },
  thresholdPct: { min: 0, max: 100, integer: false },
};

/** Which fields each rule has: vendor alarms can only be switched off. */
const fieldsOf = (rule: AlertRule): NumberField[] =>
  rule.rule === "vendor_alarm"
    ? []
    : numberFields.filter(
        (field) =>
          field === "delayMinutes" ||
          field === "clearMinutes" ||
          (field === "windowMinutes" && rule.rule === "underperformance") ||
          (field === "thresholdPct" && rule.thresholdPct !== null),
      );

type Draft = Record<string, { enabled: boolean } & Partial<Record<NumberField, string>>>;
type FieldErrors = Record<string, string>;

const draftOf = (rules: AlertRule[]): Draft =>
  Object.fromEntries(
    rules.map((rule) => [
      rule.rule,
      {
        enabled: rule.enabled,
        ...Object.fromEntries(fieldsOf(rule).map((field) => [field, String(rule[field] ?? "")])),
      },
    ]),
  );

function AlertRulesForm({ rules, canEdit }: { rules: AlertRule[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const mutation = useUpdateAlertRulesMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(rules));
  const [errors, setErrors] = useState<FieldErrors>({});
  const rangeMessage = (field: NumberField) =>
    t(limits[field].integer ? "alerting.rules.range" : "alerting.rules.rangePct", limits[field]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {};
    const patch = rules.map((rule) => {
      const values = draft[rule.rule] ?? { enabled: rule.enabled };
      const entry: Record<string, unknown> = { rule: rule.rule, enabled: values.enabled };
      for (const field of fieldsOf(rule)) {
        const text = values[field]?.trim() ?? "";
        const value = Number(text);
        const { min, max, integer } = limits[field];
        if (
          text === "" ||
          !Number.isFinite(value) ||
          value < min ||
          value > max ||
          (integer && !Number.isInteger(value))
        ) {
          found[`${rule.rule}.${field}`] = rangeMessage(field);
        }
        entry[field] = value;
      }
      return entry as AlertRulePatch;
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(
      { rules: patch },
      {
        onSuccess: (saved) => {
          setDraft(draftOf(saved.rules));
          toast.success(t("alerting.rules.saved"));
        },
        onError: (error) => {
          // The server names the field of each issue: ["rules", index, field].
          const issues =
            error instanceof ApiRequestError && Array.isArray(error.details) ? error.details : [];
          const fromServer: FieldErrors = {};
          for (const issue of issues as { path?: unknown[] }[]) {
            const [, index, field] = issue.path ?? [];
            const rule = typeof index === "number" ? rules[index] : undefined;
            if (rule && numberFields.includes(field as NumberField)) {
              fromServer[`${rule.rule}.${field}`] = rangeMessage(field as NumberField);
            }
          }
          setErrors(fromServer);
          toast.error(t("alerting.rules.saveFailed"));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-tremor-default text-tremor-content">{t("alerting.rules.intro")}</p>
      {canEdit ? null : (
        <p className="text-tremor-default text-tremor-content-emphasis">{t("alerting.rules.readOnly")}</p>
      )}
      <ul className="divide-y divide-tremor-border rounded-tremor-default border border-tremor-border">
        {rules.map((rule) => {
          const values = draft[rule.rule] ?? { enabled: rule.enabled };
          const name = t(`fleet.alerts.ruleNames.${rule.rule}`);
          const set = (change: Partial<Draft[string]>) =>
            setDraft((current) => ({ ...current, [rule.rule]: { ...values, ...change } }));
          return (
            <li key={rule.rule} aria-label={name} className="space-y-3 p-4">
              <div className="flex items-center justify-between gap-4">
                <h3 className="font-semibold text-tremor-content-strong">{name}</h3>
                <div className="flex items-center gap-2">
                  <label
                    htmlFor={`rule-${rule.rule}-enabled`}
                    className="text-tremor-label text-tremor-content"
                  >
                    {t("alerting.rules.enabled")}
                  </label>
                  <Switch
                    id={`rule-${rule.rule}-enabled`}
                    checked={values.enabled}
                    disabled={!canEdit}
                    onChange={(enabled) => set({ enabled })}
                  />
                </div>
              </div>
              {fieldsOf(rule).length > 0 ? (
                <div className="grid gap-3 sm:grid-cols-4">
                  {fieldsOf(rule).map((field) => {
                    const id = `rule-${rule.rule}-${field}`;
                    const error = errors[`${rule.rule}.${field}`];
                    return (
                      <div key={field} className="space-y-1">
                        <label
                          htmlFor={id}
                          className="block text-tremor-label font-medium text-tremor-content-strong"
                        >
                          {t(`alerting.rules.${field}`)}
                        </label>
                        <input
                          id={id}
                          inputMode="decimal"
                          value={values[field] ?? ""}
                          disabled={!canEdit}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          onChange={(event) => set({ [field]: event.target.value })}
                          className={`w-full rounded-tremor-default border px-3 py-1.5 text-tremor-default disabled:bg-tremor-background-subtle ${error ? "border-red-500" : "border-tremor-border"}`}
                        />
                        {error ? (
                          <p id={`${id}-error`} className="text-tremor-label text-red-600">
                            {error}
                          </p>
                        ) : null}
                      </div>
                    );
                  })}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" loading={mutation.isPending}>
            {t("alerting.rules.save")}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** The organisation's detection rules: everyone reads them, owners and engineers edit them. */
export function AlertRulesTab() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const query = useQuery(alertRulesQueryOptions());
  if (query.isPending) return <Spinner className="py-10" />;
  if (query.isError) {
    return (
      <ErrorState
        title={t("alerting.rules.loadFailed")}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return (
    <AlertRulesForm
      key={query.dataUpdatedAt}
      rules={query.data.rules}
      canEdit={can(actorFromProfile(profile), "alerts:manage")}
    />
  );
}
