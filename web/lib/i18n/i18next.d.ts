import "i18next";
import type { AlertingTranslation } from "./alerting/en";
import type { en } from "./en";
import type { publicEn } from "./public/en";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    // The app's strings (./en, see loadAppStrings) and `alerting` (see ./alerting) are merged in at run
    // time by the screens that use them.
    resources: { translation: typeof publicEn & typeof en & { alerting: AlertingTranslation } };
  }
}
