import { Badge, TextInput } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { useVerificationStrings } from "../../lib/i18n/verification";
import { useCurrentProfile } from "../profile-context";
import { Field } from "../ui/field";
import { ChangePasswordForm } from "./change-password-form";
import { ResetPasswordButton } from "./reset-password-button";
import { SessionList } from "./session-list";

export function AccountTab() {
  useVerificationStrings();
  const { t } = useTranslation();
  const profile = useCurrentProfile();

  return (
    <div className="space-y-5">
      <Field
        label={t("settings.account.email")}
        htmlFor="settings-email"
        hint={t("settings.account.emailHint")}
      >
        <TextInput id="settings-email" value={profile.email} readOnly disabled placeholder="" />
      </Field>
      <Badge color={profile.emailVerified ? "emerald" : "amber"}>
        {profile.emailVerified ? t("verification.account.verified") : t("verification.account.unverified")}
      </Badge>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-tremor-label font-medium uppercase tracking-wide text-tremor-content">
            {t("settings.account.role")}
          </dt>
          <dd className="mt-1 text-tremor-default text-tremor-content-strong">
            {t(`roles.${profile.role}`)}
          </dd>
        </div>
        <div>
          <dt className="text-tremor-label font-medium uppercase tracking-wide text-tremor-content">
            {t("settings.account.organization")}
          </dt>
          <dd className="mt-1 text-tremor-default text-tremor-content-strong">
            {profile.companyName ?? t("settings.account.noOrganization")}
          </dd>
        </div>
        <div>
          <dt className="text-tremor-label font-medium uppercase tracking-wide text-tremor-content">
            {t("settings.account.organizationId")}
          </dt>
          <dd className="mt-1 break-all font-mono text-tremor-label text-tremor-content-strong">
            {profile.companyId ?? "—"}
          </dd>
        </div>
      </dl>
      <div className="border-t border-tremor-border pt-5">
        <ChangePasswordForm />
      </div>
      <div className="border-t border-tremor-border pt-5">
        <ResetPasswordButton email={profile.email} />
      </div>
      <div className="border-t border-tremor-border pt-5">
        <SessionList />
      </div>
    </div>
  );
}
