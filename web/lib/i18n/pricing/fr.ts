import type { PricingTranslation } from "./en";

export const pricingFr: PricingTranslation = {
  pricing: {
    title: "Des tarifs simples et transparents",
    subtitle: "Choisissez l’offre adaptée à votre parc. Chaque offre commence par un essai gratuit.",
    trialNote: "Essai gratuit de 14 jours · Sans carte bancaire",
    perMonth: "/mois",
    mostPopular: "La plus populaire",
    startTrial: "Commencer l’essai gratuit",
    viewDemo: "Voir la démo",
    haveAccount: "Déjà un compte ? Se connecter",
    plans: {
      starter: {
        name: "Starter",
        description: "Pour les installateurs qui supervisent leurs premiers sites.",
      },
      professional: {
        name: "Professional",
        description: "Pour les parcs en croissance qui veulent aller plus loin.",
      },
      enterprise: {
        name: "Enterprise",
        description: "Pour les grands portefeuilles et les sociétés de services.",
      },
    },
    features: {
      sites5: "Jusqu’à 5 sites",
      realtime: "Supervision en temps réel",
      basicAnalytics: "Analyses de base",
      emailAlerts: "Alertes par e-mail",
      standardSupport: "Support standard",
      sites25: "Jusqu’à 25 sites",
      aiAnalytics: "Analyses IA avancées",
      predictiveMaintenance: "Maintenance prédictive",
      customDashboards: "Tableaux de bord personnalisés",
      prioritySupport: "Support prioritaire",
      apiAccess: "Accès à l’API",
      weatherCorrelation: "Corrélation météo",
      unlimitedSites: "Sites illimités",
      whiteLabel: "Marque blanche",
      customIntegrations: "Intégrations sur mesure",
      accountManager: "Responsable de compte dédié",
      phoneSupport: "Support téléphonique 24 h/24, 7 j/7",
      advancedReporting: "Rapports avancés",
      teamCollaboration: "Collaboration en équipe",
      sla: "Garanties de niveau de service (SLA)",
    },
    faqTitle: "Questions fréquentes",
    faq: {
      trial: {
        question: "Comment fonctionne l’essai gratuit ?",
        answer:
          "Chaque offre commence par 14 jours gratuits. Aucune carte bancaire n’est demandée pour commencer.",
      },
      changePlan: {
        question: "Puis-je changer d’offre plus tard ?",
        answer: "Oui. Vous pouvez changer d’offre à tout moment et le changement prend effet immédiatement.",
      },
      providers: {
        question: "Quels fournisseurs de supervision sont pris en charge ?",
        answer: "Meteronline, Solis, Fronius, SMA et SolaX. Chacun se connecte avec ses identifiants d’API.",
      },
      demo: {
        question: "Puis-je découvrir le service avant de m’inscrire ?",
        answer:
          "Oui. La page de démo présente la vue en direct du parc, et l’essai vous permet de l’utiliser avec vos propres sites.",
      },
    },
  },
};
