import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AlertSeverity } from "../../../schema/domain";
import { severityStyles } from "./severity";

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  const { t } = useTranslation();
  return (
    <Badge color={severityStyles[severity].badge} size="xs" data-severity={severity}>
      {t(`fleet.alerts.severity.${severity}`)}
    </Badge>
  );
}
