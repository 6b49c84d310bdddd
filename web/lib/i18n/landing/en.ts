import type { RegisteredProviderId } from "../../../../schema/provider-registry";
import type { Leaves } from "../public/en";

/** Strings of the landing page: loaded by its route (lib/i18n loadStringSet). */
export const landingEn = {
  landing: {
    heroBadge: "Solar fleet monitoring with losses in kWh and money",
    heroTitle: "Every solar site you manage, in one live view",
    heroSubtitle:
      "Sunfleet brings live power, daily generation, alerts and weather from your monitoring providers together, so you spot problems before they cost you.",
    tryDemo: "Try the Demo",
    signIn: "Sign In",
    viewPricing: "View Pricing",
    providersTitle: "Works with the providers you already use",
    providersSubtitle:
      "Connect your accounts with their API credentials and Sunfleet imports your sites and inverters.",
    // One line per registered provider (schema/provider-list.ts); es and fr have the same keys.
    providers: {
      meteronline: "Weather-aware monitoring for PV installations.",
      solis: "SolisCloud inverters and stations.",
      fronius: "Fronius Solar.web systems and inverters.",
      sma: "SMA Sunny Portal plants and devices.",
      solax: "SolaX Cloud inverters and batteries.",
    } satisfies Record<RegisteredProviderId, string>,
    aiTitle: "Analytics that add up",
    aiSubtitle:
      "Sunfleet compares every system with the energy its weather should have given, splits the shortfall by cause and prices it at your tariff.",
    lossesTitle: "What your fleet lost last month",
    lossesBody:
      "The share of the expected energy each plant lost, why, what it cost, and how much of it repairs and cleaning can win back.",
    lossesLink: "See the losses",
    features: {
      analytics: {
        title: "Expected yield for every system",
        body: "Compare each system with the energy expected from its weather, its orientation and its own healthy hours.",
      },
      alerts: {
        title: "Fault alerts",
        body: "No production, underperformance, an inverter down, lost communication: each alert counts the energy lost.",
      },
      weather: {
        title: "Weather impact analysis",
        body: "Separate losses caused by cloud cover from losses caused by faults.",
      },
      portfolios: {
        title: "Portfolios",
        body: "Group sites by client or region and follow their output and their losses together.",
      },
      losses: {
        title: "Losses ranked by cost",
        body: "See which sites lose the most money and why, worst first, over the last 7 or 30 days.",
      },
    },
    ctaTitle: "Ready to see your whole fleet at a glance?",
    ctaSubtitle: "Start your 14-day free trial. No credit card required.",
    ctaPrimary: "Get Started",
  },
};

/** The shape every language's landing strings must have. */
export type LandingTranslation = Leaves<typeof landingEn>;
