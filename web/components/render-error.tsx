import { RiErrorWarningLine, RiRefreshLine } from "@remixicon/react";
import { Button, Card } from "@tremor/react";
import { useTranslation } from "react-i18next";

/** The screen a render failure shows, for the router and the top-level boundary. */
export function RenderErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="flex min-h-screen items-center justify-center bg-tremor-background-muted p-6">
      <Card className="max-w-lg" role="alert">
        <div className="flex items-center gap-3">
          <RiErrorWarningLine className="h-6 w-6 shrink-0 text-red-500" aria-hidden="true" />
          <h1 className="text-tremor-title font-semibold text-tremor-content-strong">
            {t("errors.renderTitle")}
          </h1>
        </div>
        <p className="mt-2 text-tremor-default text-tremor-content">{t("errors.renderBody")}</p>
        <pre className="mt-4 max-h-40 overflow-auto whitespace-pre-wrap break-words rounded-tremor-small bg-tremor-background-subtle p-3 font-mono text-tremor-label text-tremor-content-emphasis">
          {message}
        </pre>
        <Button className="mt-4" icon={RiRefreshLine} onClick={() => window.location.reload()}>
          {t("errors.reload")}
        </Button>
      </Card>
    </div>
  );
}
