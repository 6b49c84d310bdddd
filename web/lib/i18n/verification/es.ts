import type { VerificationTranslation } from "./en";

export const verificationEs: VerificationTranslation = {
  banner: {
    title: "Confirma tu dirección de correo",
    body: "Enviamos un enlace a {{email}}. Hasta que lo sigas no puedes crear claves de API ni invitar a colegas, y una cuenta nunca confirmada se elimina 7 días después del registro.",
    resend: "Enviar de nuevo",
    sending: "Enviando...",
    sent: "Un enlace nuevo va de camino a {{email}}.",
    alreadyVerified: "Tu dirección ya está confirmada.",
    failed: "El enlace no se envió",
    failedDefault: "Inténtalo de nuevo en un momento.",
  },
  page: {
    title: "Confirma tu dirección de correo",
    verifying: "Confirmando tu dirección...",
    failed: "Este enlace no funciona",
    failedBody: "No es válido, ha caducado o ya se usó. Inicia sesión y pide uno nuevo en tu panel.",
    missingToken: "Esta página necesita el enlace del correo de confirmación.",
    toLogin: "Ir a iniciar sesión",
    toDashboard: "Ir al panel",
  },
  account: {
    verified: "Confirmada",
    unverified: "Sin confirmar",
  },
  invite: {
    movesAccount:
      "Tu dirección aún no está confirmada: aceptar mueve esta cuenta a la organización que te invita, y {{company}}, a la que solo perteneces tú, se elimina con todo su contenido.",
  },
};
