import { RiArrowLeftLine, RiMailCheckLine } from "@remixicon/react";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, lazy, Suspense, useState } from "react";
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
import { Spinner } from "../../components/ui/spinner";
import { TabSwitch } from "../../components/ui/tab-switch";
import { getSession, useSession } from "../../lib/session";
import { register, signIn } from "../../lib/sign-in";
import { toastFailure } from "./toast-failure";

// Only a visitor already signed in who opens an invite link sees it: its own chunk, with the query code.
const AcceptInvite = lazy(() =>
  import("./accept-invite").then((module) => ({ default: module.AcceptInvite })),
);

export type LoginTab = "signin" | "signup";

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
          <Suspense fallback={<Spinner />}>
            <AcceptInvite inviteToken={inviteToken} />
          </Suspense>
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
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    signIn({ email: email.trim(), password }).then(
      () => void navigate({ to: "/app/dashboard" }),
      (error: unknown) => {
        setPending(false);
        toastFailure(t("auth.loginFailed"), error, t("auth.invalidCredentials"));
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
      <PlainButton type="submit" className="w-full" loading={pending} loadingText={t("auth.signingIn")}>
        {t("auth.signIn")}
      </PlainButton>
    </form>
  );
}

function SignUpForm({ inviteToken }: { inviteToken?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [fullName, setFullName] = useState("");
  const [companyName, setCompanyName] = useState("");
  const [pending, setPending] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    register({
      email: email.trim(),
      password,
      fullName: fullName.trim(),
      // With an invite the organisation comes from the invite, so no company name is sent.
      ...(inviteToken ? { inviteToken } : { companyName: companyName.trim() }),
    }).then(
      () => {
        setTimeout(() => void navigate({ to: "/app/dashboard" }), REGISTRATION_REDIRECT_DELAY_MS);
      },
      (error: unknown) => {
        setPending(false);
        toastFailure(t("auth.registrationFailed"), error, t("auth.registrationDefault"));
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
      <PlainButton type="submit" className="w-full" loading={pending} loadingText={t("auth.creatingAccount")}>
        {t("auth.signUp")}
      </PlainButton>
    </form>
  );
}
