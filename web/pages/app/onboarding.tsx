import { RiBuilding2Line, RiLogoutBoxRLine } from "@remixicon/react";
import { useNavigate } from "@tanstack/react-router";
import { Button, Card, TextInput } from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "../../components/layout/logo";
import { useCurrentProfile } from "../../components/profile-context";
import { Field } from "../../components/ui/field";
import { errorDescription } from "../../lib/error-messages";
import { useCompleteOnboardingMutation } from "../../lib/queries/auth";
import { logout } from "../../lib/sign-in";
import { toast } from "../../lib/toast";

/** Replaces every /app screen until the signed-in user has an organisation. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const navigate = useNavigate();
  const [companyName, setCompanyName] = useState("");
  const onboarding = useCompleteOnboardingMutation();
  const blank = companyName.trim() === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = companyName.trim();
    if (name === "") {
      toast.error(t("onboarding.errorTitle"), { description: t("onboarding.companyRequired") });
      return;
    }
    onboarding.mutate(name, {
      onSuccess: (result) => {
        toast.success(t("onboarding.successTitle"), {
          description: t("onboarding.successBody", { company: result.company.name }),
        });
        void navigate({ to: "/app/dashboard" });
      },
      onError: (error) =>
        toast.error(t("onboarding.failedTitle"), {
          description: errorDescription(error, t("onboarding.failedDefault")),
        }),
    });
  };

  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 bg-tremor-background-muted p-6">
      <Logo />
      <Card className="w-full max-w-md">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-tremor-brand-faint">
            <RiBuilding2Line className="h-5 w-5 text-tremor-brand" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
              {t("onboarding.title")}
            </h1>
            <p className="text-tremor-default text-tremor-content">{t("onboarding.subtitle")}</p>
          </div>
        </div>
        <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
          <Field label={t("onboarding.email")} htmlFor="onboarding-email">
            <TextInput
              id="onboarding-email"
              type="email"
              value={profile.email}
              readOnly
              disabled
              placeholder=""
            />
          </Field>
          <Field label={t("onboarding.companyName")} htmlFor="onboarding-company">
            <TextInput
              id="onboarding-company"
              required
              value={companyName}
              onValueChange={setCompanyName}
              placeholder={t("onboarding.companyPlaceholder")}
              autoComplete="organization"
              maxLength={120}
            />
          </Field>
          <Button
            type="submit"
            className="w-full"
            disabled={blank || onboarding.isPending}
            loading={onboarding.isPending}
            loadingText={t("onboarding.submitting")}
          >
            {t("onboarding.submit")}
          </Button>
        </form>
        <p className="mt-4 text-tremor-label text-tremor-content">{t("onboarding.inviteHint")}</p>
      </Card>
      <Button variant="light" icon={RiLogoutBoxRLine} onClick={logout}>
        {t("nav.logOut")}
      </Button>
    </div>
  );
}
