import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { type StateLabel, stateLabel } from "./metrics";

/** Fault in a warning colour; stale means no data for 30 minutes in daylight. */
const statusColors: Record<string, "emerald" | "gray" | "amber" | "orange"> = {
  online: "emerald",
  offline: "gray",
  fault: "amber",
  stale: "orange",
};

export function RecordStatusBadge({ status }: { status: AnalyticsRecord["status"] }) {
  const { t } = useTranslation();
  const known = status === "online" || status === "offline" || status === "fault" || status === "stale";
  return (
    <Badge color={statusColors[status] ?? "gray"} size="xs">
      {known ? t(`insights.status.${status}`) : status}
    </Badge>
  );
}

const stateColors: Record<StateLabel, "emerald" | "amber" | "gray"> = {
  online: "emerald",
  alarm: "amber",
  offline: "gray",
};

/** Numeric state 1 Online, 3 Alarm, anything else Offline. */
export function InverterStateBadge({ state }: { state: number }) {
  const { t } = useTranslation();
  const label = stateLabel(state);
  return (
    <Badge color={stateColors[label]} size="xs">
      {t(`insights.state.${label}`)}
    </Badge>
  );
}
