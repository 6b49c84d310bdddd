import { RiArrowLeftSLine, RiArrowRightSLine, RiFileList3Line, RiLockLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import {
  Badge,
  Button,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
  TextInput,
} from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuditEntry } from "../../../schema/api/audit";
import { can } from "../../../schema/roles";
import { useCurrentProfile } from "../../components/profile-context";
import { DateInput } from "../../components/ui/date-input";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { ExportButton } from "../../components/ui/export-button";
import { Field } from "../../components/ui/field";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { useUserTimeZone } from "../../components/use-user-time-zone";
import { dayBoundaryIso, formatCount, formatDateTime, localeFor } from "../../lib/format";
import { actorFromProfile } from "../../lib/permissions";
import { type AuditFilters, auditLogsQueryOptions, auditSearchParams } from "../../lib/queries/audit";

const PAGE_SIZE = 25;

interface FilterForm {
  action: string;
  actorEmail: string;
  fromDay: string;
  toDay: string;
}

const emptyForm: FilterForm = { action: "", actorEmail: "", fromDay: "", toDay: "" };

function toFilters(form: FilterForm, page: number): AuditFilters {
  const trimmed = (value: string) => value.trim() || undefined;
  return {
    action: trimmed(form.action),
    actorEmail: trimmed(form.actorEmail),
    from: form.fromDay ? dayBoundaryIso(form.fromDay, "start") : undefined,
    to: form.toDay ? dayBoundaryIso(form.toDay, "end") : undefined,
    page,
    pageSize: PAGE_SIZE,
  };
}

function describeTarget(entry: AuditEntry): string {
  if (!entry.targetType) return "—";
  return entry.targetId ? `${entry.targetType}:${entry.targetId}` : entry.targetType;
}

export function AuditLogsPage() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  if (!can(actorFromProfile(profile), "audit:read")) {
    return (
      <>
        <PageHeader title={t("pages.auditLogs")} />
        <EmptyState
          icon={RiLockLine}
          title={t("errors.noAccessTitle")}
          description={t("errors.noAccessBody")}
        />
      </>
    );
  }
  return <AuditLogsView />;
}

function AuditLogsView() {
  const { t, i18n } = useTranslation();
  const timeZone = useUserTimeZone();
  const locale = localeFor(i18n.language);
  const [form, setForm] = useState<FilterForm>(emptyForm);
  const [applied, setApplied] = useState<FilterForm>(emptyForm);
  const [page, setPage] = useState(1);
  const logsQuery = useQuery(auditLogsQueryOptions(toFilters(applied, page)));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(form);
    setPage(1);
  };
  const reset = () => {
    setForm(emptyForm);
    setApplied(emptyForm);
    setPage(1);
  };
  const set = (key: keyof FilterForm) => (value: string) =>
    setForm((current) => ({ ...current, [key]: value }));

  const data = logsQuery.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const firstRow = data && data.total > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const lastRow = data ? Math.min(data.page * data.pageSize, data.total) : 0;

  return (
    <>
      <PageHeader
        title={t("pages.auditLogs")}
        description={t("audit.subtitle")}
        actions={<ExportButton path={`/admin/logs?${auditSearchParams(toFilters(applied, page))}`} />}
      />
      <Card className="mb-6">
        <form onSubmit={apply} className="grid gap-4 md:grid-cols-2 lg:grid-cols-[1fr_1fr_11rem_11rem_auto]">
          <Field label={t("audit.filterAction")} htmlFor="audit-action">
            <TextInput
              id="audit-action"
              value={form.action}
              onValueChange={set("action")}
              placeholder={t("audit.actionPlaceholder")}
            />
          </Field>
          <Field label={t("audit.filterActor")} htmlFor="audit-actor">
            <TextInput
              id="audit-actor"
              value={form.actorEmail}
              onValueChange={set("actorEmail")}
              placeholder={t("auth.emailPlaceholder")}
            />
          </Field>
          <Field label={t("audit.from")} htmlFor="audit-from">
            <DateInput
              id="audit-from"
              value={form.fromDay}
              onChange={(event) => set("fromDay")(event.target.value)}
              max={form.toDay || undefined}
            />
          </Field>
          <Field label={t("audit.to")} htmlFor="audit-to">
            <DateInput
              id="audit-to"
              value={form.toDay}
              onChange={(event) => set("toDay")(event.target.value)}
              min={form.fromDay || undefined}
            />
          </Field>
          <div className="flex items-end gap-2">
            <Button type="submit">{t("audit.apply")}</Button>
            <Button type="button" variant="secondary" onClick={reset}>
              {t("audit.reset")}
            </Button>
          </div>
        </form>
      </Card>

      {logsQuery.isPending ? (
        <Spinner className="py-16" />
      ) : logsQuery.isError ? (
        <ErrorState
          title={t("audit.loadFailed")}
          error={logsQuery.error}
          onRetry={() => void logsQuery.refetch()}
        />
      ) : data && data.logs.length === 0 ? (
        <EmptyState icon={RiFileList3Line} title={t("audit.emptyTitle")} description={t("audit.emptyBody")} />
      ) : data ? (
        <Card className="p-0">
          <Table aria-busy={logsQuery.isFetching}>
            <TableHead>
              <TableRow>
                <TableHeaderCell>{t("audit.time")}</TableHeaderCell>
                <TableHeaderCell>{t("audit.actor")}</TableHeaderCell>
                <TableHeaderCell>{t("audit.action")}</TableHeaderCell>
                <TableHeaderCell>{t("audit.target")}</TableHeaderCell>
                <TableHeaderCell>{t("audit.ip")}</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.logs.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="whitespace-nowrap">
                    {formatDateTime(entry.createdAt, { locale, timeZone })}
                  </TableCell>
                  <TableCell>{entry.actorEmail ?? t("audit.system")}</TableCell>
                  <TableCell>
                    <Badge color="gray" className="font-mono">
                      {entry.action}
                    </Badge>
                  </TableCell>
                  <TableCell
                    className="max-w-[16rem] truncate font-mono text-tremor-label"
                    title={describeTarget(entry)}
                  >
                    {describeTarget(entry)}
                  </TableCell>
                  <TableCell className="font-mono text-tremor-label">{entry.ip ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-tremor-border px-6 py-3">
            <p className="text-tremor-default text-tremor-content">
              {t("audit.showing", {
                from: formatCount(firstRow, locale),
                to: formatCount(lastRow, locale),
                total: formatCount(data.total, locale),
              })}
            </p>
            <div className="flex items-center gap-2">
              <Button
                size="xs"
                variant="secondary"
                icon={RiArrowLeftSLine}
                disabled={page <= 1 || logsQuery.isFetching}
                onClick={() => setPage((current) => Math.max(1, current - 1))}
              >
                {t("common.previous")}
              </Button>
              <span className="text-tremor-default text-tremor-content-emphasis">
                {t("audit.pageOf", { page: data.page, pages: pageCount })}
              </span>
              <Button
                size="xs"
                variant="secondary"
                icon={RiArrowRightSLine}
                iconPosition="right"
                disabled={page >= pageCount || logsQuery.isFetching}
                onClick={() => setPage((current) => current + 1)}
              >
                {t("common.next")}
              </Button>
            </div>
          </div>
        </Card>
      ) : null}
    </>
  );
}
