import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { DashboardMetric } from "../../../schema/api/metrics";

/** Fault in a warning colour; stale is separate from producing 0 W. */
const statusColours: Record<DashboardMetric["status"], "emerald" | "gray" | "amber" | "orange"> = {
  online: "emerald",
  offline: "gray",
  fault: "amber",
  stale: "orange",
};

export function SystemStatusBadge({ status }: { status: DashboardMetric["status"] }) {
  const { t } = useTranslation();
  return (
    <Badge color={statusColours[status]} size="xs">
      {t(`fleet.status.${status}`)}
    </Badge>
  );
}
