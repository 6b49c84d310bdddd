import type { LandingTranslation } from "./en";

export const landingEs: LandingTranslation = {
  landing: {
    heroBadge: "Monitorización de flotas solares asistida por IA",
    heroTitle: "Todas las instalaciones solares que gestiona, en una sola vista en directo",
    heroSubtitle:
      "Sunfleet reúne la potencia en directo, la generación diaria, las alertas y el tiempo de sus proveedores de monitorización para que detecte los problemas antes de que le cuesten dinero.",
    tryDemo: "Probar la demo",
    signIn: "Iniciar sesión",
    viewPricing: "Ver precios",
    providersTitle: "Compatible con los proveedores que ya utiliza",
    providersSubtitle:
      "Conecte sus cuentas con sus credenciales de API y Sunfleet importará sus instalaciones e inversores.",
    providers: {
      meteronline: "Monitorización fotovoltaica que tiene en cuenta la meteorología.",
      solis: "Inversores y plantas de SolisCloud.",
      fronius: "Sistemas e inversores de Fronius Solar.web.",
      sma: "Plantas y equipos de SMA Sunny Portal.",
      solax: "Inversores y baterías de SolaX Cloud.",
    },
    aiTitle: "Una IA que trabaja para su flota",
    aiSubtitle:
      "Sunfleet analiza a la vez la generación, las averías y el tiempo, y le indica dónde merece la pena actuar.",
    statValue: "15 %",
    statLabel: "de mejora media del rendimiento",
    features: {
      analytics: {
        title: "Análisis asistido por IA",
        body: "Compare cada sistema con su producción esperada y detecte de un vistazo los que rinden menos.",
      },
      maintenance: {
        title: "Mantenimiento predictivo",
        body: "Detecte inversores y strings que fallan por su tendencia antes de que dejen de producir.",
      },
      weather: {
        title: "Análisis del impacto meteorológico",
        body: "Distinga las pérdidas debidas a la nubosidad de las causadas por averías.",
      },
      scheduling: {
        title: "Planificación automática del mantenimiento",
        body: "Organice las visitas según las alertas y las previsiones, no con rondas fijas.",
      },
      roi: {
        title: "Recomendaciones de rentabilidad",
        body: "Sepa qué reparaciones y mejoras aportan más energía por su coste.",
      },
    },
    ctaTitle: "¿Listo para ver toda su flota de un vistazo?",
    ctaSubtitle: "Empiece su prueba gratuita de 14 días. Sin tarjeta de crédito.",
    ctaPrimary: "Empezar",
  },
};
