import type { Leaves } from "../public/en";

/** Strings of the pricing page: loaded by its route (lib/i18n loadStringSet). */
export const pricingEn = {
  pricing: {
    title: "Simple, transparent pricing",
    subtitle: "Choose the plan that fits your fleet. Every plan starts with a free trial.",
    trialNote: "14-day free trial · No credit card required",
    perMonth: "/month",
    mostPopular: "Most Popular",
    startTrial: "Start Free Trial",
    viewDemo: "View Demo",
    haveAccount: "Already have an account? Sign In",
    plans: {
      starter: { name: "Starter", description: "For installers monitoring their first sites." },
      professional: { name: "Professional", description: "For growing fleets that need deeper insight." },
      enterprise: { name: "Enterprise", description: "For large portfolios and service companies." },
    },
    features: {
      sites5: "Up to 5 sites",
      realtime: "Real-time monitoring",
      basicAnalytics: "Basic analytics",
      emailAlerts: "Email alerts",
      standardSupport: "Standard support",
      sites25: "Up to 25 sites",
      aiAnalytics: "Advanced AI analytics",
      predictiveMaintenance: "Predictive maintenance",
      customDashboards: "Custom dashboards",
      prioritySupport: "Priority support",
      apiAccess: "API access",
      weatherCorrelation: "Weather correlation",
      unlimitedSites: "Unlimited sites",
      whiteLabel: "White-label",
      customIntegrations: "Custom integrations",
      accountManager: "Dedicated account manager",
      phoneSupport: "24/7 phone support",
      advancedReporting: "Advanced reporting",
      teamCollaboration: "Team collaboration",
      sla: "SLA guarantees",
    },
    faqTitle: "Frequently asked questions",
    faq: {
      trial: {
        question: "How does the free trial work?",
        answer: "Every plan starts with 14 days free. No credit card is required to begin.",
      },
      changePlan: {
        question: "Can I change plans later?",
        answer: "Yes. You can move up or down at any time, and plan changes take effect immediately.",
      },
      providers: {
        question: "Which monitoring providers are supported?",
        answer: "Meteronline, Solis, Fronius, SMA and SolaX. You connect each one with its API credentials.",
      },
      demo: {
        question: "Can I look around before signing up?",
        answer:
          "Yes. The demo page explains the live fleet view, and the trial lets you try it with your own sites.",
      },
    },
  },
};

/** The shape every language's pricing strings must have. */
export type PricingTranslation = Leaves<typeof pricingEn>;
