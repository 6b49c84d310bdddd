import { Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { errorDescription } from "../../lib/error-messages";
import { usePasswordResetRequestMutation } from "../../lib/queries/account";
import { toast } from "../../lib/toast";

/** Settings → Account: mails a reset link to the member's own address. */
export function ResetPasswordButton({ email }: { email: string }) {
  const { t } = useTranslation();
  const reset = usePasswordResetRequestMutation();
  return (
    <div className="space-y-2">
      <p className="text-tremor-default text-tremor-content">
        {t("settings.account.resetByEmailHint", { email })}
      </p>
      <Button
        type="button"
        variant="secondary"
        loading={reset.isPending}
        onClick={() =>
          reset.mutate(email, {
            onSuccess: () =>
              toast.success(t("settings.account.resetSent"), {
                description: t("settings.account.resetSentBody", { email }),
              }),
            onError: (error) =>
              toast.error(t("settings.account.resetFailed"), { description: errorDescription(error, "") }),
          })
        }
      >
        {t("settings.account.resetByEmail")}
      </Button>
    </div>
  );
}
