import { Link, useNavigate } from "@tanstack/react-router";
import { Callout, Card } from "@tremor/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuthResponse } from "../../../schema/api/auth";
import { Logo } from "../../components/layout/logo";
import { ButtonLink } from "../../components/ui/button-link";
import { Spinner } from "../../components/ui/spinner";
import { api } from "../../lib/api";
import { useVerificationStrings } from "../../lib/i18n/verification";
import { setSession, useSession } from "../../lib/session";

const attempts = new Map<string, Promise<AuthResponse>>();

/**
 * Follows the link once however often the page's effect runs (StrictMode runs it twice): a link
 * works once, so a second call would fail after the first succeeded. Success signs in.
 */
function verifyOnce(token: string): Promise<AuthResponse> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = api.post("/auth/verify-email", { json: { token }, auth: false }).then((answer) => {
      setSession(answer.token, answer.user);
      return answer;
    });
    attempts.set(token, attempt);
  }
  return attempt;
}

/** The page a verification e-mail links to: confirms the address, signs in and opens the dashboard. */
export function VerifyEmailPage({ token }: { token?: string }) {
  useVerificationStrings();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token: sessionToken } = useSession();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!token) return;
    let current = true;
    verifyOnce(token).then(
      () => {
        if (current) void navigate({ to: "/app/dashboard", replace: true });
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [token, navigate]);

  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 bg-tremor-background-muted p-6">
      <Link to="/">
        <Logo />
      </Link>
      <Card className="w-full max-w-md space-y-4">
        <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
          {t("verification.page.title")}
        </h1>
        {!token ? (
          <Callout color="amber" title={t("verification.page.missingToken")} />
        ) : failed ? (
          <>
            <Callout color="red" title={t("verification.page.failed")}>
              {t("verification.page.failedBody")}
            </Callout>
            {sessionToken ? (
              <ButtonLink to="/app/dashboard" className="w-full">
                {t("verification.page.toDashboard")}
              </ButtonLink>
            ) : (
              <ButtonLink to="/login" className="w-full">
                {t("verification.page.toLogin")}
              </ButtonLink>
            )}
          </>
        ) : (
          <Spinner label={t("verification.page.verifying")} className="py-4" />
        )}
      </Card>
    </div>
  );
}
