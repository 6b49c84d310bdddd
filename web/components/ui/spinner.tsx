import { useTranslation } from "react-i18next";

export function Spinner({ label, className = "" }: { label?: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={`flex items-center justify-center gap-3 ${className}`}>
      <span
        aria-hidden="true"
        className="h-6 w-6 animate-spin rounded-full border-2 border-tremor-border border-t-tremor-brand"
      />
      <span className="text-tremor-default text-tremor-content">{label ?? t("common.loading")}</span>
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-tremor-background-muted">
      <Spinner />
    </div>
  );
}
