import { RiArrowLeftLine, RiLiveLine } from "@remixicon/react";
import { Card } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { PublicFooter } from "../../components/layout/public-footer";
import { PublicHeader } from "../../components/layout/public-header";
import { ButtonLink } from "../../components/ui/button-link";

export function DemoPage() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col bg-tremor-background-muted">
      <PublicHeader />
      <main className="mx-auto flex w-full max-w-3xl flex-1 items-center px-4 py-16 sm:px-6">
        <Card className="w-full text-center">
          <RiLiveLine className="mx-auto h-10 w-10 text-tremor-brand" aria-hidden="true" />
          <h1 className="mt-4 text-2xl font-bold text-tremor-content-strong">{t("demo.title")}</h1>
          <p className="mx-auto mt-3 max-w-xl text-tremor-content">{t("demo.body")}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <ButtonLink to="/login">{t("demo.tryLive")}</ButtonLink>
            <ButtonLink to="/" variant="secondary">
              <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
              {t("common.backHome")}
            </ButtonLink>
          </div>
        </Card>
      </main>
      <PublicFooter />
    </div>
  );
}
