import type { Language } from "../../schema/api/preferences";
import type { AlertSeverity } from "../../schema/domain";

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
    timesIn: (zone: string) => `Times are in ${zone}.`,
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
    timesIn: (zone: string) => `Horas en ${zone}.`,
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
    timesIn: (zone: string) => `Heures en ${zone}.`,
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
