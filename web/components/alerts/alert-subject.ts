import type { Alert } from "../../../schema/api/alerts";

/** "System · Site" for an alert, leaving out what it does not concern. */
export function alertSubject(alert: Pick<Alert, "systemName" | "siteName">): string | null {
  const parts = [alert.systemName, alert.siteName].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(" · ") : null;
}
