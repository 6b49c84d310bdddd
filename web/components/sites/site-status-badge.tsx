import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { SiteStatus } from "../../../schema/api/sites";
import type { SystemState } from "../../../schema/domain";

/** Online, offline, fault, with fault in a warning colour. */
const siteColors = { online: "emerald", offline: "gray", fault: "amber" } as const;
const systemColors = { online: "emerald", offline: "gray", alarm: "amber" } as const;

export function SiteStatusBadge({ status }: { status: SiteStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={siteColors[status]} size="xs">
      {t(`sites.status.${status}`)}
    </Badge>
  );
}

/** A system is Online, Alarm or Offline. */
export function SystemStateBadge({ state }: { state: SystemState }) {
  const { t } = useTranslation();
  return (
    <Badge color={systemColors[state]} size="xs">
      {t(`sites.systemState.${state}`)}
    </Badge>
  );
}
