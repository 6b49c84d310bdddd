import type { Alert } from "../../../schema/api/alerts";

/** "System · Site" for an alert, leaving out what it does not concern (and a site named as its plant). */
export function alertSubject(alert: Pick<Alert, "systemName" | "siteName">): string | null {
  const site = alert.siteName === alert.systemName ? null : alert.siteName;
  const parts = [alert.systemName, site].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(" · ") : null;
}
