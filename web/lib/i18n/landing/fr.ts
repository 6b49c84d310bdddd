import type { LandingTranslation } from "./en";

export const landingFr: LandingTranslation = {
  landing: {
    heroBadge: "Supervision de parcs solaires assistée par IA",
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
    aiTitle: "Une IA au service de votre parc",
    aiSubtitle:
      "Sunfleet analyse ensemble la production, les pannes et la météo, et vous indique où intervenir en priorité.",
    statValue: "15 %",
    statLabel: "d’amélioration moyenne des performances",
    features: {
      analytics: {
        title: "Analyses assistées par IA",
        body: "Comparez chaque système à sa production attendue et repérez d’un coup d’œil ceux qui sous-performent.",
      },
      maintenance: {
        title: "Maintenance prédictive",
        body: "Repérez les onduleurs et les chaînes défaillants à leur tendance, avant qu’ils ne cessent de produire.",
      },
      weather: {
        title: "Analyse de l’impact météo",
        body: "Distinguez les pertes dues à la couverture nuageuse de celles causées par des pannes.",
      },
      scheduling: {
        title: "Planification automatique de la maintenance",
        body: "Organisez les visites selon les alertes et les prévisions plutôt qu’en tournées fixes.",
      },
      roi: {
        title: "Recommandations de rentabilité",
        body: "Sachez quelles réparations et améliorations rapportent le plus d’énergie pour leur coût.",
      },
    },
    ctaTitle: "Prêt à voir tout votre parc d’un coup d’œil ?",
    ctaSubtitle: "Commencez votre essai gratuit de 14 jours. Sans carte bancaire.",
    ctaPrimary: "Commencer",
  },
};
