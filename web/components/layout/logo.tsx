import { RiSunLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";

export function Logo({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex items-center gap-2 font-semibold text-tremor-content-strong ${className}`}>
      <span className="flex h-8 w-8 items-center justify-center rounded-tremor-default bg-amber-400">
        <RiSunLine className="h-5 w-5 text-amber-950" aria-hidden="true" />
      </span>
      <span className="text-lg tracking-tight">{t("common.appName")}</span>
    </span>
  );
}
