import "i18next";
import type { AlertingTranslation } from "./alerting/en";
import type { en } from "./en";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    // `alerting` is merged in at run time by the screens that use it (see ./alerting).
    resources: { translation: typeof en & { alerting: AlertingTranslation } };
  }
}
