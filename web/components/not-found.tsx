import { RiCompass3Line } from "@remixicon/react";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "./ui/button-link";

export function NotFoundCard() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[60vh] items-center justify-center p-6">
      <Card className="max-w-md text-center">
        <RiCompass3Line className="mx-auto h-10 w-10 text-tremor-brand" aria-hidden="true" />
        <p className="mt-3 font-mono text-tremor-label text-tremor-content">404</p>
        <h1 className="mt-1 text-tremor-title font-semibold text-tremor-content-strong">
          {t("notFound.title")}
        </h1>
        <p className="mt-2 text-tremor-default text-tremor-content">{t("notFound.body")}</p>
        <ButtonLink to="/" className="mt-6">
          {t("common.goHome")}
        </ButtonLink>
      </Card>
    </div>
  );
}
