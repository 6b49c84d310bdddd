import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../ui/button-link";
import { Logo } from "./logo";

export function PublicHeader() {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-20 border-b border-tremor-border bg-tremor-background/90 backdrop-blur">
      <nav
        aria-label={t("publicNav.label")}
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6"
      >
        <Link to="/" aria-label={t("publicNav.home")}>
          <Logo />
        </Link>
        <div className="flex items-center gap-1 sm:gap-3">
          <Link
            to="/"
            hash="providers"
            className="hidden px-2 text-tremor-default font-medium text-tremor-content-emphasis hover:text-tremor-content-strong md:inline"
          >
            {t("publicNav.providers")}
          </Link>
          <Link
            to="/"
            hash="features"
            className="hidden px-2 text-tremor-default font-medium text-tremor-content-emphasis hover:text-tremor-content-strong md:inline"
          >
            {t("publicNav.features")}
          </Link>
          <Link
            to="/pricing"
            className="px-2 text-tremor-default font-medium text-tremor-content-emphasis hover:text-tremor-content-strong"
          >
            {t("publicNav.pricing")}
          </Link>
          <Link
            to="/demo"
            className="hidden px-2 text-tremor-default font-medium text-tremor-content-emphasis hover:text-tremor-content-strong sm:inline"
          >
            {t("publicNav.demo")}
          </Link>
          <ButtonLink to="/login" variant="secondary">
            {t("publicNav.signIn")}
          </ButtonLink>
        </div>
      </nav>
    </header>
  );
}
