import { Badge, Button } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Alert } from "../../../schema/api/alerts";
import type { Member } from "../../../schema/api/members";
import { errorDescription } from "../../lib/error-messages";
import { formatDateTime, formatKwh } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useAlertActionMutation, useResolveAlertMutation } from "../../lib/queries/alerts";
import { toast } from "../../lib/toast";
import { NativeSelect } from "../ui/native-select";
import { useAlertWording } from "./alert-facts";
import { alertSubject } from "./alert-subject";
import { severityStyles } from "./severity";
import { SeverityBadge } from "./severity-badge";

interface AlertItemProps {
  alert: Alert;
  /** Whether the reader may acknowledge, assign, resolve and reopen (orgOwner, orgEngineer). */
  canManage: boolean;
  /** The organisation's members an alert can be assigned to; undefined hides the picker. */
  members?: Member[];
  locale: string;
  timeZone: string | undefined;
}

function AlertHistory({
  alert,
  when,
  worded,
}: {
  alert: Alert;
  when: (value: string) => string;
  worded: ReturnType<typeof useAlertWording>["facts"];
}) {
  const { t } = useTranslation();
  // A rule's entry in the reader's language; a member's note as they typed it.
  const entryText = (event: Alert["history"][number]) => {
    const text = worded(event.facts);
    if (text) return ` — ${text}`;
    return event.note ? ` — “${event.note}”` : "";
  };
  if (alert.history.length === 0) {
    return <p className="text-tremor-label text-tremor-content">{t("alerting.alerts.noHistory")}</p>;
  }
  return (
    <ol aria-label={t("alerting.alerts.historyLabel", { title: alert.title })} className="space-y-1">
      {alert.history.map((event, index) => (
        <li
          // The history is append-only and ordered: the index is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          className="text-tremor-label text-tremor-content"
        >
          <span className="font-medium text-tremor-content-emphasis">
            {t(`alerting.alerts.events.${event.kind}`)}
          </span>
          {` · ${when(event.at)} · `}
          {event.actorName ??
            (event.rule
              ? t("alerting.alerts.byRule", { rule: t(`fleet.alerts.ruleNames.${event.rule}`) })
              : "")}
          {entryText(event)}
        </li>
      ))}
    </ol>
  );
}

export function AlertItem({ alert, canManage, members, locale, timeZone }: AlertItemProps) {
  const { t } = useTranslation();
  const resolve = useResolveAlertMutation();
  const action = useAlertActionMutation();
  const [acknowledging, setAcknowledging] = useState(false);
  const [note, setNote] = useState("");
  const [showHistory, setShowHistory] = useState(false);
  const noteId = useId();
  const assignId = useId();
  const when = (value: string) => formatDateTime(value, { locale, timeZone });
  const wording = useAlertWording(locale, timeZone);
  const subject = alertSubject(alert);
  // Sunfleet's own alerts are named by their rule in the reader's language; a vendor's alarm keeps
  // the vendor's title and code.
  const vendorAlarm = alert.rule === "vendor_alarm";
  const failed = (error: unknown) =>
    toast.error(t("alerting.alerts.actionFailed"), {
      description: errorDescription(error, t("fleet.alerts.updateFailedDefault")),
    });

  const toggle = () =>
    resolve.mutate(
      { alertId: alert.id, resolved: !alert.resolved },
      {
        onSuccess: () =>
          toast.success(alert.resolved ? t("fleet.alerts.reopened") : t("fleet.alerts.resolvedToast"), {
            description: alert.title,
          }),
        onError: (error) =>
          toast.error(t("fleet.alerts.updateFailed"), {
            description: errorDescription(error, t("fleet.alerts.updateFailedDefault")),
          }),
      },
    );

  const acknowledge = (event: FormEvent) => {
    event.preventDefault();
    action.mutate(
      { kind: "acknowledge", alertId: alert.id, note: note.trim() || undefined },
      {
        onSuccess: () => {
          setAcknowledging(false);
          setNote("");
          toast.success(t("alerting.alerts.acknowledged"), { description: alert.title });
        },
        onError: failed,
      },
    );
  };

  const assign = (userId: string | null) =>
    action.mutate(
      { kind: "assign", alertId: alert.id, userId },
      {
        onSuccess: () => toast.success(t("alerting.alerts.assigned"), { description: alert.title }),
        onError: failed,
      },
    );

  return (
    <li
      aria-label={alert.title}
      className={`rounded-tremor-default border border-l-4 border-tremor-border bg-tremor-background p-4 shadow-tremor-card ${severityStyles[alert.severity].border}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <SeverityBadge severity={alert.severity} />
            {vendorAlarm ? (
              <Badge color="slate" size="xs">
                {t("fleet.alerts.ruleNames.vendor_alarm")}
              </Badge>
            ) : null}
            {alert.resolved ? (
              <Badge color="gray" size="xs">
                {t("fleet.alerts.resolvedBadge")}
              </Badge>
            ) : null}
            <h2 className="font-semibold text-tremor-content-strong">{wording.heading(alert)}</h2>
          </div>
          <p className="mt-1 text-tremor-default text-tremor-content-emphasis">{wording.text(alert)}</p>
          <p className="mt-2 text-tremor-label text-tremor-content">
            {subject ?? t("fleet.alerts.noSystem")}
            {alert.provider ? ` · ${providerNames[alert.provider]}` : ""}
            {vendorAlarm && alert.code ? ` · ${t("fleet.alerts.code", { code: alert.code })}` : ""}
          </p>
          <p className="text-tremor-label text-tremor-content">
            {t("fleet.alerts.raised", { time: when(alert.createdAt) })}
            {alert.resolved && alert.resolvedAt
              ? ` · ${t("fleet.alerts.resolvedAt", { time: when(alert.resolvedAt) })}`
              : ""}
            {alert.acknowledgedAt
              ? ` · ${t("alerting.alerts.acknowledgedAt", { time: when(alert.acknowledgedAt) })}`
              : ""}
          </p>
          <p className="mt-1 text-tremor-default font-medium text-tremor-content-strong">
            {alert.lostEnergyKwh === null
              ? t("alerting.alerts.noEstimate")
              : t("alerting.alerts.lostEnergy", { value: formatKwh(alert.lostEnergyKwh, locale) })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canManage && !alert.resolved && !alert.acknowledgedAt && !acknowledging ? (
            <Button
              size="xs"
              variant="secondary"
              onClick={() => setAcknowledging(true)}
              aria-label={t("alerting.alerts.acknowledgeLabel", { title: alert.title })}
            >
              {t("alerting.alerts.acknowledge")}
            </Button>
          ) : null}
          {canManage ? (
            <Button
              size="xs"
              variant="secondary"
              loading={resolve.isPending}
              onClick={toggle}
              aria-label={
                alert.resolved
                  ? t("fleet.alerts.reopenLabel", { title: alert.title })
                  : t("fleet.alerts.resolveLabel", { title: alert.title })
              }
            >
              {alert.resolved ? t("fleet.alerts.reopen") : t("fleet.alerts.resolve")}
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="light"
            aria-expanded={showHistory}
            onClick={() => setShowHistory((shown) => !shown)}
            aria-label={
              showHistory
                ? `${t("alerting.alerts.hideHistory")}: ${alert.title}`
                : t("alerting.alerts.historyLabel", { title: alert.title })
            }
          >
            {showHistory ? t("alerting.alerts.hideHistory") : t("alerting.alerts.history")}
          </Button>
        </div>
      </div>
      {acknowledging ? (
        <form onSubmit={acknowledge} className="mt-3 flex flex-wrap items-end gap-2">
          <div className="min-w-[16rem] flex-1 space-y-1">
            <label
              htmlFor={noteId}
              className="block text-tremor-label font-medium text-tremor-content-strong"
            >
              {t("alerting.alerts.note")}
            </label>
            <input
              id={noteId}
              value={note}
              maxLength={500}
              onChange={(event) => setNote(event.target.value)}
              className="w-full rounded-tremor-default border border-tremor-border px-3 py-1.5 text-tremor-default"
            />
          </div>
          <Button size="xs" type="submit" loading={action.isPending}>
            {t("alerting.alerts.confirmAcknowledge")}
          </Button>
          <Button size="xs" variant="light" type="button" onClick={() => setAcknowledging(false)}>
            {t("alerting.alerts.cancel")}
          </Button>
        </form>
      ) : null}
      {canManage && members ? (
        <div className="mt-3 flex items-center gap-2">
          <label htmlFor={assignId} className="text-tremor-label font-medium text-tremor-content-strong">
            {t("alerting.alerts.assignee")}
          </label>
          <NativeSelect
            id={assignId}
            className="max-w-xs py-1"
            value={alert.assignedTo ?? ""}
            disabled={action.isPending}
            onChange={(event) => assign(event.target.value === "" ? null : event.target.value)}
          >
            <option value="">{t("alerting.alerts.unassigned")}</option>
            {members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.fullName}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      {showHistory ? (
        <div className="mt-3 border-t border-tremor-border pt-3">
          <AlertHistory alert={alert} when={when} worded={wording.facts} />
        </div>
      ) : null}
    </li>
  );
}
