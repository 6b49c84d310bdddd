import {
  RiAlarmWarningLine,
  RiArrowRightLine,
  RiBriefcase4Line,
  RiCloudyLine,
  RiLineChartLine,
  RiMoneyPoundCircleLine,
  RiPlugLine,
  RiScales3Line,
} from "@remixicon/react";
import type { LinkProps } from "@tanstack/react-router";
import { Link } from "@tanstack/react-router";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { registeredProviderIds } from "../../../schema/provider-registry";
import { PublicFooter } from "../../components/layout/public-footer";
import { PublicHeader } from "../../components/layout/public-header";
import { ButtonLink } from "../../components/ui/button-link";
import { Panel } from "../../components/ui/panel";
import { providerNames } from "../../lib/providers";

type FeatureKey = "analytics" | "alerts" | "weather" | "portfolios" | "losses";

/** Each promise with the screen that keeps it (a visitor not signed in is asked to sign in first). */
const features: {
  key: FeatureKey;
  icon: ComponentType<{ className?: string }>;
  to: NonNullable<LinkProps["to"]>;
}[] = [
  { key: "analytics", icon: RiLineChartLine, to: "/app/analytics" },
  { key: "alerts", icon: RiAlarmWarningLine, to: "/app/alerts" },
  // The losses put the weather's share beside the faults' (the Weather screen shows no losses).
  { key: "weather", icon: RiCloudyLine, to: "/app/losses" },
  { key: "portfolios", icon: RiBriefcase4Line, to: "/app/portfolios" },
  { key: "losses", icon: RiMoneyPoundCircleLine, to: "/app/losses" },
];

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-tremor-background">
      <PublicHeader />
      <main>
        <section className="bg-gradient-to-b from-amber-50 via-white to-white">
          <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 lg:py-28">
            <p className="inline-flex items-center gap-2 rounded-tremor-full border border-amber-200 bg-amber-50 px-3 py-1 text-tremor-label font-medium text-amber-800">
              <RiScales3Line className="h-4 w-4" aria-hidden="true" />
              {t("landing.heroBadge")}
            </p>
            <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-bold tracking-tight text-tremor-content-strong sm:text-5xl">
              {t("landing.heroTitle")}
            </h1>
            <p className="mx-auto mt-5 max-w-2xl text-lg text-tremor-content">{t("landing.heroSubtitle")}</p>
            <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
              <ButtonLink to="/demo">
                {t("landing.tryDemo")}
                <RiArrowRightLine className="h-4 w-4" aria-hidden="true" />
              </ButtonLink>
              <ButtonLink to="/login" variant="secondary">
                {t("landing.signIn")}
              </ButtonLink>
              <ButtonLink to="/pricing" variant="light">
                {t("landing.viewPricing")}
              </ButtonLink>
            </div>
          </div>
        </section>

        <section id="providers" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
          <div className="text-center">
            <h2 className="text-3xl font-bold tracking-tight text-tremor-content-strong">
              {t("landing.providersTitle")}
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-tremor-content">{t("landing.providersSubtitle")}</p>
          </div>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            {registeredProviderIds.map((provider) => (
              <li key={provider}>
                <Panel className="h-full">
                  <RiPlugLine className="h-6 w-6 text-tremor-brand" aria-hidden="true" />
                  <h3 className="mt-3 font-semibold text-tremor-content-strong">{providerNames[provider]}</h3>
                  <p className="mt-1 text-tremor-default text-tremor-content">
                    {t(`landing.providers.${provider}`)}
                  </p>
                </Panel>
              </li>
            ))}
          </ul>
        </section>

        <section id="features" className="scroll-mt-20 bg-tremor-background-muted">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <div className="grid gap-10 lg:grid-cols-[1fr_2fr] lg:items-start">
              <div>
                <h2 className="text-3xl font-bold tracking-tight text-tremor-content-strong">
                  {t("landing.aiTitle")}
                </h2>
                <p className="mt-3 text-tremor-content">{t("landing.aiSubtitle")}</p>
                <div className="mt-8 rounded-tremor-default border border-tremor-border bg-tremor-background p-6">
                  <RiLineChartLine className="h-6 w-6 text-emerald-600" aria-hidden="true" />
                  <h3 className="mt-2 text-tremor-title font-semibold text-tremor-content-strong">
                    {t("landing.lossesTitle")}
                  </h3>
                  <p className="mt-1 text-tremor-default text-tremor-content">{t("landing.lossesBody")}</p>
                  <ButtonLink to="/app/losses" variant="secondary" className="mt-4">
                    {t("landing.lossesLink")}
                    <RiArrowRightLine className="h-4 w-4" aria-hidden="true" />
                  </ButtonLink>
                </div>
              </div>
              <ul className="grid gap-4 sm:grid-cols-2">
                {features.map(({ key, icon: Icon, to }) => (
                  <li key={key}>
                    <Panel className="h-full">
                      <Icon className="h-6 w-6 text-tremor-brand" aria-hidden="true" />
                      <h3 className="mt-3 font-semibold text-tremor-content-strong">
                        <Link to={to} className="hover:text-tremor-brand hover:underline">
                          {t(`landing.features.${key}.title`)}
                        </Link>
                      </h3>
                      <p className="mt-1 text-tremor-default text-tremor-content">
                        {t(`landing.features.${key}.body`)}
                      </p>
                    </Panel>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="rounded-2xl bg-gray-900 px-6 py-14 text-center sm:px-12">
            <h2 className="text-3xl font-bold tracking-tight text-white">{t("landing.ctaTitle")}</h2>
            <p className="mx-auto mt-3 max-w-xl text-gray-300">{t("landing.ctaSubtitle")}</p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <ButtonLink to="/login">{t("landing.ctaPrimary")}</ButtonLink>
              <ButtonLink to="/pricing" variant="light" className="text-white hover:text-amber-200">
                {t("landing.viewPricing")}
              </ButtonLink>
            </div>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}
