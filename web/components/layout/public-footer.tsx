import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { Logo } from "./logo";

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-tremor-border bg-tremor-background">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <Logo />
          <p className="mt-2 max-w-sm text-tremor-default text-tremor-content">{t("footer.tagline")}</p>
        </div>
        <nav aria-label={t("footer.label")} className="flex flex-wrap gap-x-6 gap-y-2 text-tremor-default">
          <Link to="/pricing" className="text-tremor-content-emphasis hover:text-tremor-content-strong">
            {t("publicNav.pricing")}
          </Link>
          <Link to="/demo" className="text-tremor-content-emphasis hover:text-tremor-content-strong">
            {t("publicNav.demo")}
          </Link>
          <Link to="/login" className="text-tremor-content-emphasis hover:text-tremor-content-strong">
            {t("publicNav.signIn")}
          </Link>
        </nav>
      </div>
      <p className="border-t border-tremor-border py-4 text-center text-tremor-label text-tremor-content">
        {t("footer.copyright", { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
