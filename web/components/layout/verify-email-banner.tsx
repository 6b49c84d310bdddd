import { Button, Callout } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { errorDescription } from "../../lib/error-messages";
import { useVerificationStrings } from "../../lib/i18n/verification";
import { useResendVerificationMutation } from "../../lib/queries/verification";
import { toast } from "../../lib/toast";
import { useCurrentProfile } from "../profile-context";

/**
 * Asks an account whose address was never verified to follow the mailed link, with "send again".
 * Its own chunk, with its strings: only such accounts download it.
 */
export default function VerifyEmailBanner() {
  useVerificationStrings();
  const { t } = useTranslation();
  const { email } = useCurrentProfile();
  const resend = useResendVerificationMutation();

  const onResend = () =>
    resend.mutate(undefined, {
      onSuccess: (answer) =>
        toast.success(
          answer.sent ? t("verification.banner.sent", { email }) : t("verification.banner.alreadyVerified"),
        ),
      onError: (error) =>
        toast.error(t("verification.banner.failed"), {
          description: errorDescription(error, t("verification.banner.failedDefault")),
        }),
    });

  return (
    <Callout
      color="amber"
      title={t("verification.banner.title")}
      className="mb-6"
      role="status"
      aria-label={t("verification.banner.title")}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p>{t("verification.banner.body", { email })}</p>
        <Button
          type="button"
          variant="secondary"
          color="amber"
          className="shrink-0"
          loading={resend.isPending}
          loadingText={t("verification.banner.sending")}
          onClick={onResend}
        >
          {t("verification.banner.resend")}
        </Button>
      </div>
    </Callout>
  );
}
