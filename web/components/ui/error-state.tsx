import { RiErrorWarningLine } from "@remixicon/react";
import { Button, Callout } from "@tremor/react";
import { useTranslation } from "react-i18next";

interface ErrorStateProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

export function ErrorState({ title, error, onRetry }: ErrorStateProps) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : t("errors.unknownError");
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
