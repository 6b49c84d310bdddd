import {
  RiArrowDownSLine,
  RiArrowRightSLine,
  RiDeleteBinLine,
  RiEditLine,
  RiLinkUnlinkM,
  RiMapPinLine,
} from "@remixicon/react";
import {
  Button,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from "@tremor/react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EnhancedSite, SiteSystem } from "../../../schema/api/sites";
import { errorDescription } from "../../lib/error-messages";
import {
  formatCapacityKw,
  formatDateTime,
  formatEnergyWh,
  formatKwh,
  formatNumber,
  formatPowerW,
  localeFor,
} from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useDeleteSiteMutation, useDetachSystemMutation } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";
import { SystemLiveRow } from "../dashboard/system-live-row";
import { useUserTimeZone } from "../use-user-time-zone";
import { SiteEditForm } from "./site-edit-form";
import { SiteStatusBadge, SystemStateBadge } from "./site-status-badge";

interface ManagedSiteProps {
  site: EnhancedSite;
  canManage: boolean;
}

/** One site of Site Management: a header that expands to its systems, details and actions. */
export function ManagedSite({ site, canManage }: ManagedSiteProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState(false);
  const remove = useDeleteSiteMutation();
  const panelId = `managed-site-${site.id}`;

  const onDelete = () => {
    if (!window.confirm(t("siteManagement.confirmDelete", { name: site.name, count: site.systemCount })))
      return;
    remove.mutate(site.id, {
      onSuccess: () =>
        toast.success(t("siteManagement.toasts.deleted"), {
          description: t("siteManagement.toasts.deletedBody", { name: site.name }),
        }),
      onError: (error) =>
        toast.error(t("siteManagement.toasts.deleteFailed"), {
          description: errorDescription(error, t("siteManagement.toasts.deleteFailedDefault")),
        }),
    });
  };

  return (
    <Card className="p-0" role="group" aria-label={site.name}>
      <h2>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setExpanded((current) => !current)}
          className="flex w-full flex-wrap items-center gap-x-6 gap-y-2 px-5 py-4 text-left hover:bg-tremor-background-muted"
        >
          <span className="flex min-w-0 flex-1 items-center gap-2">
            {expanded ? (
              <RiArrowDownSLine className="h-5 w-5 shrink-0 text-tremor-content" aria-hidden="true" />
            ) : (
              <RiArrowRightSLine className="h-5 w-5 shrink-0 text-tremor-content" aria-hidden="true" />
            )}
            <span className="min-w-0">
              <span className="block truncate text-tremor-title font-semibold text-tremor-content-strong">
                {site.name}
              </span>
              <span className="flex items-center gap-1 truncate text-tremor-label text-tremor-content">
                <RiMapPinLine className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
                {site.location}
              </span>
            </span>
          </span>
          <span className="flex flex-wrap items-center gap-4 text-tremor-default text-tremor-content">
            <SiteStatusBadge status={site.status} />
            <span>{t("siteManagement.systemsCount", { count: site.systemCount })}</span>
            <span>{formatCapacityKw(site.totalCapacity, locale)}</span>
            <span className="font-medium text-tremor-content-strong">
              {formatPowerW(site.currentPower, locale)}
            </span>
          </span>
        </button>
      </h2>
      {expanded ? (
        <div id={panelId} className="space-y-4 border-t border-tremor-border px-5 py-4">
          <dl className="grid gap-3 text-tremor-default sm:grid-cols-3 lg:grid-cols-6">
            <Detail label={t("siteManagement.details.capacity")}>
              {formatCapacityKw(site.totalCapacity, locale)}{" "}
              <span className="text-tremor-label text-tremor-content">
                (
                {site.capacitySource === "manual"
                  ? t("siteManagement.details.manual")
                  : t("siteManagement.details.fromSystems")}
                )
              </span>
            </Detail>
            <Detail label={t("siteManagement.details.tilt")}>
              {site.tiltDeg === null
                ? t("siteManagement.details.notSet")
                : `${formatNumber(site.tiltDeg, locale, 0)}°`}
            </Detail>
            <Detail label={t("siteManagement.details.azimuth")}>
              {site.azimuthDeg === null
                ? t("siteManagement.details.notSet")
                : `${formatNumber(site.azimuthDeg, locale, 0)}°`}
            </Detail>
            <Detail label={t("siteManagement.details.acLimit")}>
              {site.acLimitKw === null
                ? t("siteManagement.details.notSet")
                : formatCapacityKw(site.acLimitKw, locale)}
            </Detail>
            <Detail label={t("siteManagement.details.estimatedYield")}>
              {site.estimatedYield === null
                ? t("siteManagement.details.notSet")
                : t("siteManagement.details.perYear", { value: formatKwh(site.estimatedYield, locale) })}
            </Detail>
            <Detail label={t("siteManagement.details.timezone")}>{site.timezone}</Detail>
            <Detail label={t("siteManagement.details.locationSource")}>
              <span data-testid="location-source">
                {t(`siteManagement.details.source.${site.locationSource}`)}
              </span>
            </Detail>
          </dl>
          {editing ? <SiteEditForm site={site} onDone={() => setEditing(false)} /> : null}
          <SystemsTable site={site} canManage={canManage} />
          {canManage && !editing ? (
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" icon={RiEditLine} onClick={() => setEditing(true)}>
                {t("siteManagement.edit.open")}
              </Button>
              <Button
                variant="secondary"
                color="red"
                icon={RiDeleteBinLine}
                onClick={onDelete}
                loading={remove.isPending}
              >
                {t("siteManagement.delete")}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-tremor-label text-tremor-content">{label}</dt>
      <dd className="font-medium text-tremor-content-strong">{children}</dd>
    </div>
  );
}

function SystemsTable({ site, canManage }: ManagedSiteProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  const detach = useDetachSystemMutation();

  if (site.systems.length === 0) {
    return <p className="text-tremor-default text-tremor-content">{t("siteManagement.noSystems")}</p>;
  }

  const onDetach = (system: SiteSystem) => {
    if (!window.confirm(t("siteManagement.confirmDetach", { system: system.systemName, site: site.name })))
      return;
    detach.mutate(
      { siteId: site.id, systemId: system.id },
      {
        onSuccess: () =>
          toast.success(t("siteManagement.toasts.detached"), {
            description: t("siteManagement.toasts.detachedBody", { system: system.systemName }),
          }),
        onError: (error) =>
          toast.error(t("siteManagement.toasts.detachFailed"), {
            description: errorDescription(error, t("siteManagement.toasts.detachFailedDefault")),
          }),
      },
    );
  };

  return (
    // Positioned, so the header's visually hidden label stays inside the scrolling table instead
    // of widening the page.
    <Table className="relative" aria-label={t("siteManagement.systemsOf", { name: site.name })}>
      <TableHead>
        <TableRow>
          <TableHeaderCell>{t("siteManagement.columns.system")}</TableHeaderCell>
          <TableHeaderCell>{t("siteManagement.columns.provider")}</TableHeaderCell>
          <TableHeaderCell className="text-right">{t("siteManagement.columns.capacity")}</TableHeaderCell>
          <TableHeaderCell className="text-right">{t("siteManagement.columns.power")}</TableHeaderCell>
          <TableHeaderCell className="text-right">{t("siteManagement.columns.today")}</TableHeaderCell>
          <TableHeaderCell>{t("siteManagement.columns.state")}</TableHeaderCell>
          <TableHeaderCell>{t("siteManagement.columns.dataTime")}</TableHeaderCell>
          <TableHeaderCell>{t("topBar.live")}</TableHeaderCell>
          {canManage ? (
            <TableHeaderCell>
              <span className="sr-only">{t("siteManagement.columns.actions")}</span>
            </TableHeaderCell>
          ) : null}
        </TableRow>
      </TableHead>
      <TableBody>
        {site.systems.map((system) => (
          <TableRow key={system.id}>
            <TableCell className="font-medium text-tremor-content-strong">{system.systemName}</TableCell>
            <TableCell>{providerNames[system.provider]}</TableCell>
            <TableCell className="text-right">
              {system.capacity === null ? "—" : formatCapacityKw(system.capacity, locale)}
            </TableCell>
            <TableCell className="text-right">
              {system.currentPowerW === null ? "—" : formatPowerW(system.currentPowerW, locale)}
            </TableCell>
            <TableCell className="text-right">
              {system.todayEnergyWh === null ? "—" : formatEnergyWh(system.todayEnergyWh, locale)}
            </TableCell>
            <TableCell>
              <SystemStateBadge state={system.status} />
            </TableCell>
            <TableCell>
              {system.dataTime
                ? formatDateTime(system.dataTime, { locale, timeZone })
                : t("sites.card.noData")}
            </TableCell>
            <TableCell>
              <SystemLiveRow siteId={site.id} systemId={system.id} />
            </TableCell>
            {canManage ? (
              <TableCell className="text-right">
                {/* Icon only, so the table keeps its width; the name and tooltip say what it does. */}
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  icon={RiLinkUnlinkM}
                  onClick={() => onDetach(system)}
                  aria-label={t("siteManagement.detachSystem", { system: system.systemName })}
                  title={t("siteManagement.detachSystem", { system: system.systemName })}
                />
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
