import { Button, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../../schema/api/password-limits";
import { errorDescription } from "../../lib/error-messages";
import { useChangePasswordMutation } from "../../lib/queries/account";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

/** Settings → Account: a new password, confirmed by the current one; other sessions end. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const id = useId();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const change = useChangePasswordMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword("");
          setNewPassword("");
          toast.success(t("settings.account.passwordChanged"), {
            description: t("settings.account.passwordChangedBody"),
          });
        },
        onError: (error) =>
          toast.error(t("settings.account.passwordChangeFailed"), {
            description: errorDescription(error, t("settings.account.passwordChangeFailedDefault")),
          }),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-tremor-default font-semibold text-tremor-content-strong">
        {t("settings.account.changePassword")}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("settings.account.currentPassword")} htmlFor={`${id}-current`}>
          <TextInput
            id={`${id}-current`}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onValueChange={setCurrentPassword}
            required
          />
        </Field>
        <Field
          label={t("settings.account.newPassword")}
          htmlFor={`${id}-new`}
          hint={t("settings.account.newPasswordHint", { min: PASSWORD_MIN_LENGTH })}
        >
          <TextInput
            id={`${id}-new`}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onValueChange={setNewPassword}
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            required
          />
        </Field>
      </div>
      <Button type="submit" variant="secondary" loading={change.isPending}>
        {t("settings.account.changePasswordSubmit")}
      </Button>
    </form>
  );
}
