import type { AlertRuleName, AlertSeverity, Language } from "../../schema/domain";

/** Every mail's words, in each language a member can choose. */
export const mailMessages = {
  en: {
    resetSubject: "Reset your Sunfleet password",
    resetIntro: "Someone asked to reset the password of your Sunfleet account.",
    resetExpiry: "The link works once, for one hour. If you did not ask for it, ignore this e-mail.",
    resetAction: "Choose a new password",
    alertsSubject: (n: number) => (n === 1 ? "Sunfleet: 1 new alert" : `Sunfleet: ${n} new alerts`),
    alertsIntro: "New alerts in your fleet:",
    alertsAction: "Open the alerts",
    unsubscribeAlerts: "Stop real-time alert e-mails",
    severity: { critical: "Critical", warning: "Warning", info: "Info" } as Record<AlertSeverity, string>,
    /** Sunfleet's own rules by name; a vendor's alarm keeps the vendor's title. */
    ruleName: {
      communication_lost: "Communication lost",
      no_production: "No production",
      underperformance: "Underperformance",
      inverter_down: "Inverter down",
    } as Record<Exclude<AlertRuleName, "vendor_alarm">, string>,
    timesIn: (zone: string) => `Times are in ${zone}.`,
    alertAt: (title: string, place: string, time: string) => `${title} — ${place}, since ${time}`,
    digestSubject: (from: string, to: string) => `Sunfleet weekly digest, ${from} – ${to}`,
    digestIntro: (from: string, to: string) => `Your fleet from ${from} to ${to}.`,
    reportSubject: (month: string) => `Sunfleet monthly report, ${month}`,
    reportIntro: (month: string) => `Your fleet in ${month}. The attached CSV holds the same figures.`,
    portfolios: "Portfolios",
    sites: "Sites",
    worst: "Five worst performers",
    columns: {
      name: "Name",
      energy: "Energy",
      expected: "Expected",
      pr: "PR",
      availability: "Availability",
      lost: "Energy lost",
    },
    alertCounts: (opened: number, closed: number) => `Alerts: ${opened} opened, ${closed} closed.`,
    energyLost: (kwh: string) => `Energy lost to open alerts: ${kwh}.`,
    noData: "No data",
    openFleet: "Open Sunfleet",
    unsubscribeDigest: "Stop the weekly digest",
    unsubscribeReport: "Stop the monthly report",
    topics: {
      realtimeAlerts: "real-time alert e-mails",
      weeklyDigest: "the weekly digest",
      monthlyReports: "the monthly report",
    },
    unsubscribeTitle: "Unsubscribe",
    unsubscribeAsk: (email: string, topic: string) => `Stop sending ${topic} to ${email}?`,
    unsubscribeButton: "Unsubscribe",
    unsubscribeDone: (email: string, topic: string) =>
      `Done: ${email} no longer receives ${topic}. You can switch it on again in Settings → Notifications.`,
    unsubscribeInvalid: "This unsubscribe link is invalid or has expired.",
  },
  es: {
    resetSubject: "Restablece tu contraseña de Sunfleet",
    resetIntro: "Alguien pidió restablecer la contraseña de tu cuenta de Sunfleet.",
    resetExpiry: "El enlace sirve una vez, durante una hora. Si no lo pediste, ignora este correo.",
    resetAction: "Elegir una contraseña nueva",
    alertsSubject: (n: number) => (n === 1 ? "Sunfleet: 1 alerta nueva" : `Sunfleet: ${n} alertas nuevas`),
    alertsIntro: "Alertas nuevas en tu flota:",
    alertsAction: "Abrir las alertas",
    unsubscribeAlerts: "Dejar de recibir alertas en tiempo real por correo",
    severity: { critical: "Crítica", warning: "Advertencia", info: "Información" } as Record<
      AlertSeverity,
      string
    >,
    /** Sunfleet's own rules by name; a vendor's alarm keeps the vendor's title. */
    ruleName: {
      communication_lost: "Comunicación perdida",
      no_production: "Sin producción",
      underperformance: "Rendimiento bajo",
      inverter_down: "Inversor caído",
    } as Record<Exclude<AlertRuleName, "vendor_alarm">, string>,
    timesIn: (zone: string) => `Horas en ${zone}.`,
    alertAt: (title: string, place: string, time: string) => `${title} — ${place}, desde ${time}`,
    digestSubject: (from: string, to: string) => `Resumen semanal de Sunfleet, ${from} – ${to}`,
    digestIntro: (from: string, to: string) => `Tu flota del ${from} al ${to}.`,
    reportSubject: (month: string) => `Informe mensual de Sunfleet, ${month}`,
    reportIntro: (month: string) => `Tu flota en ${month}. El CSV adjunto contiene las mismas cifras.`,
    portfolios: "Carteras",
    sites: "Sitios",
    worst: "Los cinco de peor rendimiento",
    columns: {
      name: "Nombre",
      energy: "Energía",
      expected: "Esperada",
      pr: "PR",
      availability: "Disponibilidad",
      lost: "Energía perdida",
    },
    alertCounts: (opened: number, closed: number) => `Alertas: ${opened} abiertas, ${closed} cerradas.`,
    energyLost: (kwh: string) => `Energía perdida por alertas: ${kwh}.`,
    noData: "Sin datos",
    openFleet: "Abrir Sunfleet",
    unsubscribeDigest: "Dejar de recibir el resumen semanal",
    unsubscribeReport: "Dejar de recibir el informe mensual",
    topics: {
      realtimeAlerts: "las alertas en tiempo real por correo",
      weeklyDigest: "el resumen semanal",
      monthlyReports: "el informe mensual",
    },
    unsubscribeTitle: "Cancelar suscripción",
    unsubscribeAsk: (email: string, topic: string) => `¿Dejar de enviar ${topic} a ${email}?`,
    unsubscribeButton: "Cancelar suscripción",
    unsubscribeDone: (email: string, topic: string) =>
      `Hecho: ${email} ya no recibe ${topic}. Puedes volver a activarlo en Ajustes → Notificaciones.`,
    unsubscribeInvalid: "Este enlace para cancelar la suscripción no es válido o ha caducado.",
  },
  fr: {
    resetSubject: "Réinitialisez votre mot de passe Sunfleet",
    resetIntro: "Quelqu'un a demandé la réinitialisation du mot de passe de votre compte Sunfleet.",
    resetExpiry:
      "Le lien ne sert qu'une fois, pendant une heure. Si vous n'avez rien demandé, ignorez cet e-mail.",
    resetAction: "Choisir un nouveau mot de passe",
    alertsSubject: (n: number) =>
      n === 1 ? "Sunfleet : 1 nouvelle alerte" : `Sunfleet : ${n} nouvelles alertes`,
    alertsIntro: "Nouvelles alertes dans votre parc :",
    alertsAction: "Ouvrir les alertes",
    unsubscribeAlerts: "Ne plus recevoir les alertes en temps réel par e-mail",
    severity: { critical: "Critique", warning: "Avertissement", info: "Information" } as Record<
      AlertSeverity,
      string
    >,
    /** Sunfleet's own rules by name; a vendor's alarm keeps the vendor's title. */
    ruleName: {
      communication_lost: "Communication perdue",
      no_production: "Aucune production",
      underperformance: "Sous-performance",
      inverter_down: "Onduleur arrêté",
    } as Record<Exclude<AlertRuleName, "vendor_alarm">, string>,
    timesIn: (zone: string) => `Heures en ${zone}.`,
    alertAt: (title: string, place: string, time: string) => `${title} — ${place}, depuis ${time}`,
    digestSubject: (from: string, to: string) => `Résumé hebdomadaire Sunfleet, ${from} – ${to}`,
    digestIntro: (from: string, to: string) => `Votre parc du ${from} au ${to}.`,
    reportSubject: (month: string) => `Rapport mensuel Sunfleet, ${month}`,
    reportIntro: (month: string) => `Votre parc en ${month}. Le CSV joint reprend les mêmes chiffres.`,
    portfolios: "Portefeuilles",
    sites: "Sites",
    worst: "Les cinq moins performants",
    columns: {
      name: "Nom",
      energy: "Énergie",
      expected: "Attendue",
      pr: "PR",
      availability: "Disponibilité",
      lost: "Énergie perdue",
    },
    alertCounts: (opened: number, closed: number) => `Alertes : ${opened} ouvertes, ${closed} fermées.`,
    energyLost: (kwh: string) => `Énergie perdue sur alertes : ${kwh}.`,
    noData: "Pas de données",
    openFleet: "Ouvrir Sunfleet",
    unsubscribeDigest: "Ne plus recevoir le résumé hebdomadaire",
    unsubscribeReport: "Ne plus recevoir le rapport mensuel",
    topics: {
      realtimeAlerts: "les alertes en temps réel par e-mail",
      weeklyDigest: "le résumé hebdomadaire",
      monthlyReports: "le rapport mensuel",
    },
    unsubscribeTitle: "Désinscription",
    unsubscribeAsk: (email: string, topic: string) => `Ne plus envoyer ${topic} à ${email} ?`,
    unsubscribeButton: "Se désinscrire",
    unsubscribeDone: (email: string, topic: string) =>
      `C'est fait : ${email} ne reçoit plus ${topic}. Vous pouvez le réactiver dans Paramètres → Notifications.`,
    unsubscribeInvalid: "Ce lien de désinscription n'est pas valide ou a expiré.",
  },
} satisfies Record<Language, unknown>;

/** A time in the member's zone and language, e.g. "12 Jun 2026, 14:05". */
export function formatMailTime(epochMs: number, language: Language, timeZone: string): string {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    zone = "UTC";
  }
  return new Intl.DateTimeFormat(language, {
    timeZone: zone,
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(epochMs));
}

/** A whole number in the member's language, e.g. "1,234" or "1 234". */
export const formatMailNumber = (value: number, language: Language, digits = 0) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(
    value,
  );

/** Energy in kWh (MWh from 10,000 kWh) in the member's language. */
export function formatMailEnergy(energyWh: number, language: Language): string {
  const kwh = energyWh / 1000;
  return Math.abs(kwh) >= 10_000
    ? `${formatMailNumber(kwh / 1000, language, 1)} MWh`
    : `${formatMailNumber(kwh, language, 1)} kWh`;
}

/** A share (0..1) as a percentage in the member's language, or null's words. */
export const formatMailPercent = (share: number, language: Language) =>
  new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 }).format(share);
