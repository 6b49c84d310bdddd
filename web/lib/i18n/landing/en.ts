import type { Leaves } from "../public/en";

/** Strings of the landing page: loaded by its route (lib/i18n loadStringSet). */
export const landingEn = {
  landing: {
    heroBadge: "AI-assisted solar fleet monitoring",
    heroTitle: "Every solar site you manage, in one live view",
    heroSubtitle:
      "Sunfleet brings live power, daily generation, alerts and weather from your monitoring providers together, so you spot problems before they cost you.",
    tryDemo: "Try the Demo",
    signIn: "Sign In",
    viewPricing: "View Pricing",
    providersTitle: "Works with the providers you already use",
    providersSubtitle:
      "Connect your accounts with their API credentials and Sunfleet imports your sites and inverters.",
    providers: {
      meteronline: "Weather-aware monitoring for PV installations.",
      solis: "SolisCloud inverters and stations.",
      fronius: "Fronius Solar.web systems and inverters.",
      sma: "SMA Sunny Portal plants and devices.",
      solax: "SolaX Cloud inverters and batteries.",
    },
    aiTitle: "AI that works for your fleet",
    aiSubtitle:
      "Sunfleet analyses generation, faults and weather together and tells you where attention pays off.",
    statValue: "15%",
    statLabel: "average performance increase",
    features: {
      analytics: {
        title: "AI-assisted analytics",
        body: "Compare every system against its expected yield and see underperformers at a glance.",
      },
      maintenance: {
        title: "Predictive maintenance",
        body: "Spot failing inverters and strings from their trends before they stop producing.",
      },
      weather: {
        title: "Weather impact analysis",
        body: "Separate losses caused by cloud cover from losses caused by faults.",
      },
      scheduling: {
        title: "Automated maintenance scheduling",
        body: "Plan site visits around alerts and forecasts instead of fixed rounds.",
      },
      roi: {
        title: "ROI recommendations",
        body: "Know which repairs and upgrades return the most energy for their cost.",
      },
    },
    ctaTitle: "Ready to see your whole fleet at a glance?",
    ctaSubtitle: "Start your 14-day free trial. No credit card required.",
    ctaPrimary: "Get Started",
  },
};

/** The shape every language's landing strings must have. */
export type LandingTranslation = Leaves<typeof landingEn>;
