import "i18next";
import type { apiErrorsEn } from "./api-errors/en";
import type { en } from "./en";
import type { FleetListsTranslation } from "./fleet-lists/en";
import type { landingEn } from "./landing/en";
import type { LossesTranslation } from "./losses/en";
import type { pricingEn } from "./pricing/en";
import type { publicEn } from "./public/en";
import type { VerificationTranslation } from "./verification/en";
import type { WeatherTranslation } from "./weather/en";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    // The string sets (see `stringSets` in ./index.ts, the app's with `alerting` in it),
    // `verification` (see ./verification), `fleetLists` (see ./fleet-lists), `losses` (see
    // ./losses) and `insights.weather` (see ./weather) are merged in at run time by what shows them.
    resources: {
      translation: typeof publicEn &
        typeof landingEn &
        typeof pricingEn &
        typeof apiErrorsEn &
        typeof en & {
          verification: VerificationTranslation;
          losses: LossesTranslation;
          fleetLists: FleetListsTranslation;
          insights: { weather: WeatherTranslation };
        };
    };
  }
}
