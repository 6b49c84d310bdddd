import type { TFunction } from "i18next";
import { ApiRequestError } from "../../lib/api";
import { reloadPage } from "../../lib/reload-page";
import { clearSession } from "../../lib/session";
import { toast } from "../../lib/toast";

export function toastMissingFields(t: TFunction, labels: string[]): void {
  toast.error(t("settings.providers.toasts.missingFields"), {
    description: t("settings.providers.toasts.fillIn", { fields: labels.join(", ") }),
  });
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
