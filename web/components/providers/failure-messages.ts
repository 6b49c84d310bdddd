import type { TFunction } from "i18next";
import { toast } from "sonner";
import { ApiRequestError, errorDescription } from "../../lib/api";
import { clearSession } from "../../lib/session";
import { reloadPage } from "./reload-page";

/** The server's "Missing required fields" answer carries the labels to fill in. */
export const MISSING_FIELDS_ERROR = "Missing required fields";

/** Labels of the fields the server found empty, when that is why it refused. */
export function missingFieldLabels(error: unknown): string[] | null {
  if (!(error instanceof ApiRequestError) || error.serverError !== MISSING_FIELDS_ERROR) return null;
  const details = error.details;
  if (details && typeof details === "object" && "missing" in details && Array.isArray(details.missing)) {
    return details.missing.filter((label): label is string => typeof label === "string");
  }
  return [];
}

export function toastMissingFields(t: TFunction, labels: string[]): void {
  toast.error(t("settings.providers.toasts.missingFields"), {
    description: t("settings.providers.toasts.fillIn", { fields: labels.join(", ") }),
  });
}

/** The server's error (with its first issue), else a plain-text details value, else the fallback. */
export function failureDescription(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && !error.serverError && typeof error.details === "string") {
    return error.details;
  }
  return errorDescription(error, fallback);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 401;
}

/** How long the session-expired toast stays: long enough to reach its Log Out button. */
const SESSION_EXPIRED_TOAST_MS = 15_000;

/** Session expired, with a Log Out action that forgets the session and reloads. */
export function toastSessionExpired(t: TFunction): void {
  toast.error(t("settings.providers.toasts.sessionExpired"), {
    description: t("settings.providers.toasts.sessionExpiredBody"),
    duration: SESSION_EXPIRED_TOAST_MS,
    action: {
      label: t("settings.providers.toasts.logOut"),
      onClick: () => {
        clearSession();
        reloadPage();
      },
    },
  });
}
