import { RiArrowLeftLine, RiMailCheckLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../../schema/api/password-limits";
import { Logo } from "../../components/layout/logo";
import { ButtonLink } from "../../components/ui/button-link";
import { Field } from "../../components/ui/field";
import { Notice } from "../../components/ui/notice";
import { Panel } from "../../components/ui/panel";
import { PasswordInput } from "../../components/ui/password-input";
import { PlainButton } from "../../components/ui/plain-button";
import { PlainInput } from "../../components/ui/plain-input";
import { TabSwitch } from "../../components/ui/tab-switch";
import { useAcceptInviteMutation, useLoginMutation, useRegisterMutation } from "../../lib/queries/auth";
import { profileQueryOptions } from "../../lib/queries/user";
import { getSession, logout, useSession } from "../../lib/session";
import { toast } from "../../lib/toast";

export type LoginTab = "signin" | "signup";

/**
 * A failure's toast, in the reader's language from the API's error code. The code's messages load
 * with the first failure: this page's first download stays small.
 */
function toastFailure(title: string, error: unknown, fallback: string): void {
  void import("../../lib/error-messages").then(({ errorDescription }) =>
    toast.error(title, { description: errorDescription(error, fallback) }),
  );
}

/** Registration success redirects after 100 ms. */
export const REGISTRATION_REDIRECT_DELAY_MS = 100;

interface LoginPageProps {
  initialTab: LoginTab;
  inviteToken?: string;
}

export function LoginPage({ initialTab, inviteToken }: LoginPageProps) {
  const { t } = useTranslation();
  const { token } = useSession();
  // Only a visitor already signed in when the invite link opened is offered to accept it; someone who
  // just registered through the link is on their way to the dashboard.
  const [signedInOnArrival] = useState(() => getSession().token !== null);
  // An invite link is for signing up: it opens that tab.
  const [tab, setTab] = useState<LoginTab>(inviteToken ? "signup" : initialTab);

  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 bg-tremor-background-muted p-6">
      <Link to="/">
        <Logo />
      </Link>
      <Panel className="max-w-md">
        {signedInOnArrival && token !== null && inviteToken ? (
          <AcceptInvite inviteToken={inviteToken} />
        ) : (
          <>
            <h1 className="text-tremor-title font-semibold text-tremor-content-strong">{t("auth.title")}</h1>
            <p className="text-tremor-default text-tremor-content">{t("auth.subtitle")}</p>
            <TabSwitch
              className="mt-6"
              tabs={[
                { value: "signin", label: t("auth.signIn") },
                { value: "signup", label: t("auth.signUp") },
              ]}
              value={tab}
              onChange={setTab}
            />
            {/* Only the chosen form is mounted, so each label names exactly one field. */}
            <div
              role="tabpanel"
              aria-label={tab === "signin" ? t("auth.signIn") : t("auth.signUp")}
              className="pt-6"
            >
              {tab === "signin" ? <SignInForm /> : <SignUpForm inviteToken={inviteToken} />}
            </div>
          </>
        )}
      </Panel>
      <ButtonLink to="/" variant="light">
        <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
        {t("common.backHome")}
      </ButtonLink>
    </div>
  );
}

function SignInForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLoginMutation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => void navigate({ to: "/app/dashboard" }),
        onError: (error) => toastFailure(t("auth.loginFailed"), error, t("auth.invalidCredentials")),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label={t("auth.email")} htmlFor="signin-email">
        <PlainInput
          id="signin-email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          placeholder={t("auth.emailPlaceholder")}
        />
      </Field>
      <Field label={t("auth.password")} htmlFor="signin-password">
        <PasswordInput
          id="signin-password"
          required
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          placeholder={t("auth.passwordPlaceholder")}
        />
      </Field>
      <PlainButton
        type="submit"
        className="w-full"
        loading={login.isPending}
        loadingText={t("auth.signingIn")}
      >
        {t("auth.signIn")}
      </PlainButton>
    </form>
  );
}

function SignUpForm({ inviteToken }: { inviteToken?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const register = useRegisterMutation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [fullName, setFullName] = useState("");
  const [companyName, setCompanyName] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      {
        email: email.trim(),
        password,
        fullName: fullName.trim(),
        // With an invite the organisation comes from the invite, so no company name is sent.
        ...(inviteToken ? { inviteToken } : { companyName: companyName.trim() }),
      },
      {
        onSuccess: () => {
          setTimeout(() => void navigate({ to: "/app/dashboard" }), REGISTRATION_REDIRECT_DELAY_MS);
        },
        onError: (error) => toastFailure(t("auth.registrationFailed"), error, t("auth.registrationDefault")),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      {inviteToken ? (
        <Notice title={t("auth.inviteTitle")} icon={RiMailCheckLine}>
          {t("auth.inviteNotice")}
        </Notice>
      ) : null}
      <Field label={t("auth.email")} htmlFor="signup-email">
        <PlainInput
          id="signup-email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onValueChange={setEmail}
          placeholder={t("auth.emailPlaceholder")}
        />
      </Field>
      <Field label={t("auth.password")} htmlFor="signup-password" hint={t("auth.passwordHint")}>
        <PasswordInput
          id="signup-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          autoComplete="new-password"
          value={password}
          onValueChange={setPassword}
          placeholder={t("auth.newPasswordPlaceholder")}
        />
      </Field>
      <Field label={t("auth.fullName")} htmlFor="signup-full-name">
        <PlainInput
          id="signup-full-name"
          required
          autoComplete="name"
          value={fullName}
          onValueChange={setFullName}
          placeholder={t("auth.fullNamePlaceholder")}
          maxLength={120}
        />
      </Field>
      {inviteToken ? (
        <Field label={t("auth.inviteToken")} htmlFor="signup-invite">
          <PlainInput id="signup-invite" value={inviteToken} readOnly placeholder="" />
        </Field>
      ) : (
        <Field label={t("auth.companyName")} htmlFor="signup-company">
          <PlainInput
            id="signup-company"
            required
            autoComplete="organization"
            value={companyName}
            onValueChange={setCompanyName}
            placeholder={t("auth.companyNamePlaceholder")}
            maxLength={120}
          />
        </Field>
      )}
      <PlainButton
        type="submit"
        className="w-full"
        loading={register.isPending}
        loadingText={t("auth.creatingAccount")}
      >
        {t("auth.signUp")}
      </PlainButton>
    </form>
  );
}

/** A signed-in user (typically one without organisation) opening an invite link joins its organisation. */
function AcceptInvite({ inviteToken }: { inviteToken: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accept = useAcceptInviteMutation();
  // The signed-in account, as the session's profile fetch (SessionBootstrap) answers it.
  const email = useQuery(profileQueryOptions()).data?.email ?? "";

  const onAccept = () =>
    accept.mutate(inviteToken, {
      onSuccess: (profile) => {
        toast.success(t("auth.acceptInvite.successTitle"), {
          description: t("auth.acceptInvite.successBody", { company: profile.companyName ?? "" }),
        });
        void navigate({ to: "/app/dashboard" });
      },
      onError: (error) =>
        toastFailure(t("auth.acceptInvite.failedTitle"), error, t("auth.acceptInvite.failedDefault")),
    });

  return (
    <div className="space-y-4">
      <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
        {t("auth.acceptInvite.title")}
      </h1>
      <p className="text-tremor-default text-tremor-content">{t("auth.acceptInvite.body", { email })}</p>
      <PlainButton
        className="w-full"
        onClick={onAccept}
        loading={accept.isPending}
        loadingText={t("auth.acceptInvite.accepting")}
      >
        {t("auth.acceptInvite.submit")}
      </PlainButton>
      <PlainButton className="w-full" variant="secondary" onClick={logout}>
        {t("auth.acceptInvite.otherAccount")}
      </PlainButton>
    </div>
  );
}
