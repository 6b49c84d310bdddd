import type { AlertRuleName, AlertSeverity, Language } from "../../schema/domain";
import type { LossCategory } from "../../schema/loss-categories";

/** Every mail's words, in each language a member can choose. */
export const mailMessages = {
  en: {
    resetSubject: "Reset your Sunfleet password",
    resetIntro: "Someone asked to reset the password of your Sunfleet account.",
    resetExpiry: "The link works once, for one hour. If you did not ask for it, ignore this e-mail.",
    resetAction: "Choose a new password",
    verifySubject: "Confirm your Sunfleet e-mail address",
    verifyIntro: "Confirm that this address is yours to finish setting up your Sunfleet account.",
    verifyExpiry:
      "The link works once, for 48 hours. Until the address is confirmed the account cannot create API keys or invite anyone, and an account never confirmed is removed 7 days after sign-up.",
    verifyAction: "Confirm my address",
    verifyReminderSubject: "Confirm your Sunfleet e-mail address, or the account is removed in 2 days",
    verifyReminderIntro:
      "The e-mail address of your Sunfleet account was never confirmed. Unless it is, the account and the organisation only it belongs to are removed in 2 days, with everything in them.",
    inviteSubject: (org: string) => `You are invited to ${org} on Sunfleet`,
    inviteIntro: (inviter: string, org: string) => `${inviter} invites you to join ${org} on Sunfleet.`,
    inviteExpiry:
      "The link works once, for 7 days. If you did not expect it, ignore this e-mail. Accepting it confirms this address.",
    inviteAction: "Accept the invite",
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
    lossesTitle: "Losses",
    lossesSummary: (lost: string, share: string, expected: string) =>
      `Losses: ${lost} lost, ${share} of the ${expected} expected.`,
    lossesRecoverable: (kwh: string, share: string) =>
      `Recoverable (downtime, partial outages, soiling, underperformance): ${kwh}, ${share} of the expected energy.`,
    lossesValue: (value: string) => `What the losses cost: ${value}.`,
    lossesNoPrice:
      "No price of energy is set, so the losses have no value yet: set one on a site or in Settings.",
    lossesWeather: (kwh: string) =>
      `Beside the losses, the weather took ${kwh}: the energy a clear sky would have added to the expected.`,
    lossesNone: "No day of the month has a loss account yet.",
    lossesBySite: "Sites that lost most",
    lossesMore: (count: number) =>
      count === 1 ? "1 more site is in the attached CSV." : `${count} more sites are in the attached CSV.`,
    lossColumns: { site: "Site", lost: "Lost energy", value: "Lost value", cause: "Main cause" },
    lossCategory: {
      downtime: "Downtime",
      partialOutage: "Partial outage",
      clipping: "Clipping",
      soiling: "Soiling",
      underperformance: "Underperformance",
      unmeasured: "Unmeasured",
    } as Record<LossCategory, string>,
    openLosses: "Open the losses",
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
    verifySubject: "Confirma tu dirección de correo de Sunfleet",
    verifyIntro: "Confirma que esta dirección es tuya para terminar de configurar tu cuenta de Sunfleet.",
    verifyExpiry:
      "El enlace sirve una vez, durante 48 horas. Hasta confirmar la dirección, la cuenta no puede crear claves de API ni invitar a nadie, y una cuenta nunca confirmada se elimina 7 días después del registro.",
    verifyAction: "Confirmar mi dirección",
    verifyReminderSubject: "Confirma tu correo de Sunfleet o la cuenta se eliminará en 2 días",
    verifyReminderIntro:
      "La dirección de correo de tu cuenta de Sunfleet nunca se confirmó. Si no se confirma, la cuenta y la organización a la que solo ella pertenece se eliminan en 2 días, con todo su contenido.",
    inviteSubject: (org: string) => `Te invitan a ${org} en Sunfleet`,
    inviteIntro: (inviter: string, org: string) => `${inviter} te invita a unirte a ${org} en Sunfleet.`,
    inviteExpiry:
      "El enlace sirve una vez, durante 7 días. Si no lo esperabas, ignora este correo. Aceptarlo confirma esta dirección.",
    inviteAction: "Aceptar la invitación",
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
    lossesTitle: "Pérdidas",
    lossesSummary: (lost: string, share: string, expected: string) =>
      `Pérdidas: ${lost} perdidos, el ${share} de los ${expected} esperados.`,
    lossesRecoverable: (kwh: string, share: string) =>
      `Recuperable (paradas, paradas parciales, suciedad, bajo rendimiento): ${kwh}, el ${share} de la energía esperada.`,
    lossesValue: (value: string) => `Lo que costaron las pérdidas: ${value}.`,
    lossesNoPrice:
      "No hay ningún precio de la energía, así que las pérdidas aún no tienen valor: fija uno en una instalación o en Configuración.",
    lossesWeather: (kwh: string) =>
      `Junto a las pérdidas, el tiempo se llevó ${kwh}: la energía que un cielo despejado habría añadido a la esperada.`,
    lossesNone: "Aún no hay ningún día del mes con las pérdidas calculadas.",
    lossesBySite: "Instalaciones que más perdieron",
    lossesMore: (count: number) =>
      count === 1
        ? "1 instalación más está en el CSV adjunto."
        : `${count} instalaciones más están en el CSV adjunto.`,
    lossColumns: {
      site: "Instalación",
      lost: "Energía perdida",
      value: "Valor perdido",
      cause: "Causa principal",
    },
    lossCategory: {
      downtime: "Parada",
      partialOutage: "Parada parcial",
      clipping: "Recorte",
      soiling: "Suciedad",
      underperformance: "Bajo rendimiento",
      unmeasured: "Sin medir",
    } as Record<LossCategory, string>,
    openLosses: "Abrir las pérdidas",
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
    verifySubject: "Confirmez votre adresse e-mail Sunfleet",
    verifyIntro:
      "Confirmez que cette adresse est la vôtre pour terminer la création de votre compte Sunfleet.",
    verifyExpiry:
      "Le lien ne sert qu'une fois, pendant 48 heures. Tant que l'adresse n'est pas confirmée, le compte ne peut ni créer de clés d'API ni inviter personne, et un compte jamais confirmé est supprimé 7 jours après l'inscription.",
    verifyAction: "Confirmer mon adresse",
    verifyReminderSubject: "Confirmez votre e-mail Sunfleet, sinon le compte sera supprimé dans 2 jours",
    verifyReminderIntro:
      "L'adresse e-mail de votre compte Sunfleet n'a jamais été confirmée. Sans confirmation, le compte et l'organisation à laquelle lui seul appartient sont supprimés dans 2 jours, avec tout leur contenu.",
    inviteSubject: (org: string) => `Vous êtes invité à rejoindre ${org} sur Sunfleet`,
    inviteIntro: (inviter: string, org: string) => `${inviter} vous invite à rejoindre ${org} sur Sunfleet.`,
    inviteExpiry:
      "Le lien ne sert qu'une fois, pendant 7 jours. Si vous ne l'attendiez pas, ignorez cet e-mail. L'accepter confirme cette adresse.",
    inviteAction: "Accepter l'invitation",
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
    lossesTitle: "Pertes",
    lossesSummary: (lost: string, share: string, expected: string) =>
      `Pertes : ${lost} perdus, soit ${share} des ${expected} attendus.`,
    lossesRecoverable: (kwh: string, share: string) =>
      `Récupérable (arrêts, arrêts partiels, encrassement, sous-performance) : ${kwh}, soit ${share} de l'énergie attendue.`,
    lossesValue: (value: string) => `Ce que les pertes ont coûté : ${value}.`,
    lossesNoPrice:
      "Aucun prix de l'énergie n'est fixé : les pertes n'ont pas encore de valeur. Fixez-en un sur un site ou dans les Paramètres.",
    lossesWeather: (kwh: string) =>
      `À côté des pertes, la météo a pris ${kwh} : l'énergie qu'un ciel clair aurait ajoutée à l'attendu.`,
    lossesNone: "Aucun jour du mois n'a encore ses pertes calculées.",
    lossesBySite: "Les sites qui ont le plus perdu",
    lossesMore: (count: number) =>
      count === 1
        ? "1 autre site figure dans le CSV joint."
        : `${count} autres sites figurent dans le CSV joint.`,
    lossColumns: { site: "Site", lost: "Énergie perdue", value: "Valeur perdue", cause: "Cause principale" },
    lossCategory: {
      downtime: "Arrêt",
      partialOutage: "Arrêt partiel",
      clipping: "Écrêtage",
      soiling: "Encrassement",
      underperformance: "Sous-performance",
      unmeasured: "Non mesuré",
    } as Record<LossCategory, string>,
    openLosses: "Ouvrir les pertes",
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

/** An amount in an ISO 4217 currency in the member's language, e.g. "€1,234.50" or "1 234,50 €". */
export const formatMailMoney = (amount: number, currency: string, language: Language) =>
  new Intl.NumberFormat(language, { style: "currency", currency }).format(amount);

/** A share (0..1) as a percentage in the member's language, or null's words. */
export const formatMailPercent = (share: number, language: Language) =>
  new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 0 }).format(share);
