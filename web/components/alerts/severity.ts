import type { AlertSeverity } from "../../../schema/domain";

/** Red critical, amber warning, blue info. */
export const severityStyles: Record<
  AlertSeverity,
  { badge: "red" | "amber" | "blue"; border: string; dot: string }
> = {
  critical: { badge: "red", border: "border-l-red-500", dot: "bg-red-500" },
  warning: { badge: "amber", border: "border-l-amber-500", dot: "bg-amber-500" },
  info: { badge: "blue", border: "border-l-blue-500", dot: "bg-blue-500" },
};
