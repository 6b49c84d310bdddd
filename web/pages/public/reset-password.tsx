import { Link } from "@tanstack/react-router";
import { Button, Callout, Card } from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../../schema/api/password-limits";
import { Logo } from "../../components/layout/logo";
import { Field } from "../../components/ui/field";
import { PasswordInput } from "../../components/ui/password-input";
import { errorDescription } from "../../lib/error-messages";
import { usePasswordResetConfirmMutation } from "../../lib/queries/account";

/** The page a reset e-mail links to: a new password for the account the link was sent for. */
export function ResetPasswordPage({ token }: { token?: string }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const confirm = usePasswordResetConfirmMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token) confirm.mutate({ token, password });
  };

  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 bg-tremor-background-muted p-6">
      <Link to="/">
        <Logo />
      </Link>
      <Card className="w-full max-w-md space-y-4">
        <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
          {t("passwordReset.title")}
        </h1>
        <p className="text-tremor-default text-tremor-content">{t("passwordReset.subtitle")}</p>
        {!token ? (
          <Callout color="amber" title={t("passwordReset.missingToken")} />
        ) : confirm.isSuccess ? (
          <Callout color="emerald" title={t("passwordReset.done")}>
            {t("passwordReset.doneBody")}
          </Callout>
        ) : (
          <form onSubmit={submit} className="space-y-4">
            {confirm.isError ? (
              <Callout color="red" title={t("passwordReset.failed")}>
                {errorDescription(confirm.error, t("passwordReset.failedDefault"))}
              </Callout>
            ) : null}
            <Field label={t("passwordReset.newPassword")} htmlFor="reset-password">
              <PasswordInput
                id="reset-password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                minLength={PASSWORD_MIN_LENGTH}
                maxLength={PASSWORD_MAX_LENGTH}
                required
              />
            </Field>
            <Button type="submit" className="w-full" loading={confirm.isPending}>
              {t("passwordReset.submit")}
            </Button>
          </form>
        )}
        <Link to="/login" className="block text-tremor-default text-tremor-brand">
          {t("passwordReset.backToLogin")}
        </Link>
      </Card>
    </div>
  );
}
