import type { LandingTranslation } from "./en";

export const landingFr: LandingTranslation = {
  landing: {
    heroBadge: "Supervision de parcs solaires, pertes en kWh et en argent",
    heroTitle: "Tous les sites solaires que vous gérez, dans une seule vue en direct",
    heroSubtitle:
      "Sunfleet réunit la puissance en direct, la production journalière, les alertes et la météo de vos fournisseurs de supervision, pour repérer les problèmes avant qu’ils ne vous coûtent.",
    tryDemo: "Essayer la démo",
    signIn: "Se connecter",
    viewPricing: "Voir les tarifs",
    providersTitle: "Compatible avec les fournisseurs que vous utilisez déjà",
    providersSubtitle:
      "Connectez vos comptes avec leurs identifiants d’API et Sunfleet importe vos sites et vos onduleurs.",
    providers: {
      meteronline: "Supervision photovoltaïque tenant compte de la météo.",
      solis: "Onduleurs et centrales SolisCloud.",
      fronius: "Systèmes et onduleurs Fronius Solar.web.",
      sma: "Centrales et équipements SMA Sunny Portal.",
      solax: "Onduleurs et batteries SolaX Cloud.",
    },
    aiTitle: "Des analyses qui tombent juste",
    aiSubtitle:
      "Sunfleet compare chaque système à l’énergie que sa météo aurait dû donner, répartit le manque par cause et le valorise à votre tarif.",
    lossesTitle: "Ce que votre parc a perdu le mois dernier",
    lossesBody:
      "La part de l’énergie attendue que chaque centrale a perdue, pourquoi, ce qu’elle a coûté, et ce que réparations et nettoyages peuvent en regagner.",
    lossesLink: "Voir les pertes",
    features: {
      analytics: {
        title: "Production attendue de chaque système",
        body: "Comparez chaque système à l’énergie attendue d’après sa météo, son orientation et ses propres heures sans panne.",
      },
      alerts: {
        title: "Alertes de pannes",
        body: "Pas de production, sous-performance, un onduleur à l’arrêt, communication perdue : chaque alerte chiffre l’énergie perdue.",
      },
      weather: {
        title: "Analyse de l’impact météo",
        body: "Distinguez les pertes dues à la couverture nuageuse de celles causées par des pannes.",
      },
      portfolios: {
        title: "Portefeuilles",
        body: "Regroupez les sites par client ou par région et suivez ensemble leur production et leurs pertes.",
      },
      losses: {
        title: "Pertes classées par coût",
        body: "Voyez quels sites perdent le plus d’argent et pourquoi, du pire au meilleur, sur les 7 ou 30 derniers jours.",
      },
    },
    ctaTitle: "Prêt à voir tout votre parc d’un coup d’œil ?",
    ctaSubtitle: "Commencez votre essai gratuit de 14 jours. Sans carte bancaire.",
    ctaPrimary: "Commencer",
  },
};
