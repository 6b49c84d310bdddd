import { Badge } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { DemoAlertSeverity } from "../../lib/demo/simulation";

/** Operational is the default badge, maintenance secondary, anything else destructive. */
export type DemoBadgeVariant = "default" | "secondary" | "destructive";
export function demoStatusVariant(status: string): DemoBadgeVariant {
  if (status === "operational") return "default";
  if (status === "maintenance") return "secondary";
  return "destructive";
}

const variantColors = { default: "blue", secondary: "gray", destructive: "red" } as const;

export function DemoStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const variant = demoStatusVariant(status);
  const known = status === "operational" || status === "maintenance";
  return (
    <Badge color={variantColors[variant]} size="xs" data-variant={variant}>
      {known ? t(`insights.demo.status.${status}`) : status}
    </Badge>
  );
}

/** Red critical, amber warning, blue info. */
export const severityColors = { critical: "red", warning: "amber", info: "blue" } as const;

export function SeverityBadge({ severity }: { severity: DemoAlertSeverity }) {
  const { t } = useTranslation();
  return (
    <Badge color={severityColors[severity]} size="xs">
      {t(`insights.demo.severity.${severity}`)}
    </Badge>
  );
}
