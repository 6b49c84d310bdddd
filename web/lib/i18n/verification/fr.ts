import type { VerificationTranslation } from "./en";

export const verificationFr: VerificationTranslation = {
  banner: {
    title: "Confirmez votre adresse e-mail",
    body: "Nous avons envoyé un lien à {{email}}. Tant que vous ne l'avez pas suivi, vous ne pouvez ni créer de clés d'API ni inviter de collègues, et un compte jamais confirmé est supprimé 7 jours après l'inscription.",
    resend: "Renvoyer",
    sending: "Envoi...",
    sent: "Un nouveau lien est en route vers {{email}}.",
    alreadyVerified: "Votre adresse est déjà confirmée.",
    failed: "Le lien n'a pas été envoyé",
    failedDefault: "Réessayez dans un instant.",
  },
  page: {
    title: "Confirmez votre adresse e-mail",
    verifying: "Confirmation de votre adresse...",
    failed: "Ce lien ne fonctionne pas",
    failedBody:
      "Il n'est pas valide, a expiré ou a déjà servi. Connectez-vous et demandez-en un nouveau depuis votre tableau de bord.",
    missingToken: "Cette page a besoin du lien de l'e-mail de confirmation.",
    toLogin: "Aller à la connexion",
    toDashboard: "Aller au tableau de bord",
  },
  account: {
    verified: "Confirmée",
    unverified: "Pas encore confirmée",
  },
  invite: {
    movesAccount:
      "Votre adresse n'est pas encore confirmée : accepter déplace ce compte dans l'organisation qui vous invite, et {{company}}, à laquelle vous seul appartenez, est supprimée avec tout son contenu.",
  },
};
