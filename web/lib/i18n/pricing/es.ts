import type { PricingTranslation } from "./en";

export const pricingEs: PricingTranslation = {
  pricing: {
    title: "Precios sencillos y transparentes",
    subtitle: "Elija el plan que se adapte a su flota. Todos los planes empiezan con una prueba gratuita.",
    trialNote: "Prueba gratuita de 14 días · Sin tarjeta de crédito",
    perMonth: "/mes",
    mostPopular: "Más popular",
    startTrial: "Empezar prueba gratuita",
    viewDemo: "Ver demo",
    haveAccount: "¿Ya tiene una cuenta? Inicie sesión",
    plans: {
      starter: {
        name: "Starter",
        description: "Para instaladores que monitorizan sus primeras instalaciones.",
      },
      professional: {
        name: "Professional",
        description: "Para flotas en crecimiento que necesitan más detalle.",
      },
      enterprise: { name: "Enterprise", description: "Para grandes carteras y empresas de servicios." },
    },
    features: {
      sites5: "Hasta 5 instalaciones",
      realtime: "Monitorización en tiempo real",
      basicAnalytics: "Análisis básico",
      emailAlerts: "Alertas por correo electrónico",
      standardSupport: "Soporte estándar",
      sites25: "Hasta 25 instalaciones",
      aiAnalytics: "Análisis avanzado con IA",
      predictiveMaintenance: "Mantenimiento predictivo",
      customDashboards: "Paneles personalizados",
      prioritySupport: "Soporte prioritario",
      apiAccess: "Acceso a la API",
      weatherCorrelation: "Correlación meteorológica",
      unlimitedSites: "Instalaciones ilimitadas",
      whiteLabel: "Marca blanca",
      customIntegrations: "Integraciones a medida",
      accountManager: "Gestor de cuenta dedicado",
      phoneSupport: "Soporte telefónico 24/7",
      advancedReporting: "Informes avanzados",
      teamCollaboration: "Colaboración en equipo",
      sla: "Garantías de SLA",
    },
    faqTitle: "Preguntas frecuentes",
    faq: {
      trial: {
        question: "¿Cómo funciona la prueba gratuita?",
        answer:
          "Todos los planes empiezan con 14 días gratis. No se necesita tarjeta de crédito para empezar.",
      },
      changePlan: {
        question: "¿Puedo cambiar de plan más adelante?",
        answer: "Sí. Puede subir o bajar de plan cuando quiera y los cambios se aplican de inmediato.",
      },
      providers: {
        question: "¿Qué proveedores de monitorización son compatibles?",
        answer: "Meteronline, Solis, Fronius, SMA y SolaX. Cada uno se conecta con sus credenciales de API.",
      },
      demo: {
        question: "¿Puedo echar un vistazo antes de registrarme?",
        answer:
          "Sí. La página de demo explica la vista en directo de la flota y la prueba le permite usarla con sus propias instalaciones.",
      },
    },
  },
};
