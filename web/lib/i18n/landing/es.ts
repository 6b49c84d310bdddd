import type { LandingTranslation } from "./en";

export const landingEs: LandingTranslation = {
  landing: {
    heroBadge: "Monitorización de flotas solares con pérdidas en kWh y en dinero",
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
    aiTitle: "Análisis que cuadran",
    aiSubtitle:
      "Sunfleet compara cada sistema con la energía que su meteorología debía dar, reparte lo que faltó por causas y lo valora con su tarifa.",
    lossesTitle: "Lo que su flota perdió el mes pasado",
    lossesBody:
      "La parte de la energía esperada que perdió cada planta, por qué, lo que costó y cuánto pueden recuperar reparaciones y limpiezas.",
    lossesLink: "Ver las pérdidas",
    features: {
      analytics: {
        title: "Producción esperada de cada sistema",
        body: "Compare cada sistema con la energía esperada según su meteorología, su orientación y sus propias horas sin averías.",
      },
      alerts: {
        title: "Alertas de averías",
        body: "Sin producción, bajo rendimiento, un inversor parado, comunicación perdida: cada alerta cifra la energía perdida.",
      },
      weather: {
        title: "Análisis del impacto meteorológico",
        body: "Distinga las pérdidas debidas a la nubosidad de las causadas por averías.",
      },
      portfolios: {
        title: "Carteras",
        body: "Agrupe instalaciones por cliente o región y siga juntas su producción y sus pérdidas.",
      },
      losses: {
        title: "Pérdidas ordenadas por coste",
        body: "Vea qué instalaciones pierden más dinero y por qué, la peor primero, en los últimos 7 o 30 días.",
      },
    },
    ctaTitle: "¿Listo para ver toda su flota de un vistazo?",
    ctaSubtitle: "Empiece su prueba gratuita de 14 días. Sin tarjeta de crédito.",
    ctaPrimary: "Empezar",
  },
};
