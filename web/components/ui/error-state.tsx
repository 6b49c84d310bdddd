import { RiErrorWarningLine } from "@remixicon/react";
import { Button, Callout } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { ApiRequestError } from "../../lib/api";
import { errorDescription } from "../../lib/error-messages";

interface ErrorStateProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

export function ErrorState({ title, error, onRetry }: ErrorStateProps) {
  const { t } = useTranslation();
  // An API failure shows its code in the user's language; a network failure its own message.
  const message =
    error instanceof Error && !(error instanceof ApiRequestError)
      ? error.message
      : errorDescription(error, t("errors.unknownError"));
  return (
    <Callout title={title} color="red" icon={RiErrorWarningLine} role="alert">
      <p className="break-words">{message}</p>
      {onRetry ? (
        <Button className="mt-3" size="xs" variant="secondary" color="red" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      ) : null}
    </Callout>
  );
}
