import { RiCheckLine } from "@remixicon/react";
import { useTranslation } from "react-i18next";
import { PublicFooter } from "../../components/layout/public-footer";
import { PublicHeader } from "../../components/layout/public-header";
import { ButtonLink } from "../../components/ui/button-link";
import { Panel } from "../../components/ui/panel";
import { formatPriceGbp, localeFor } from "../../lib/format";

type PlanKey = "starter" | "professional" | "enterprise";

/** Monthly prices in pounds and each plan's features, in order. */
const plans: { key: PlanKey; priceGbp: number; features: string[]; popular?: boolean }[] = [
  {
    key: "starter",
    priceGbp: 29,
    features: ["sites5", "realtime", "basicAnalytics", "emailAlerts", "standardSupport"],
  },
  {
    key: "professional",
    priceGbp: 79,
    popular: true,
    features: [
      "sites25",
      "aiAnalytics",
      "predictiveMaintenance",
      "customDashboards",
      "prioritySupport",
      "apiAccess",
      "weatherCorrelation",
    ],
  },
  {
    key: "enterprise",
    priceGbp: 199,
    features: [
      "unlimitedSites",
      "whiteLabel",
      "customIntegrations",
      "accountManager",
      "phoneSupport",
      "advancedReporting",
      "teamCollaboration",
      "sla",
    ],
  },
];

const faqKeys = ["trial", "changePlan", "providers", "demo"] as const;

export function PricingPage() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  return (
    <div className="min-h-screen bg-tremor-background-muted">
      <PublicHeader />
      <main className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="text-center">
          <h1 className="text-4xl font-bold tracking-tight text-tremor-content-strong">
            {t("pricing.title")}
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-tremor-content">{t("pricing.subtitle")}</p>
          <p className="mt-4 inline-flex rounded-tremor-full bg-emerald-50 px-4 py-1 text-tremor-default font-medium text-emerald-800">
            {t("pricing.trialNote")}
          </p>
        </div>

        <ul className="mt-12 grid gap-6 lg:grid-cols-3">
          {plans.map((plan) => (
            <li key={plan.key}>
              <Panel
                className={`relative flex h-full flex-col ${plan.popular ? "ring-2 ring-tremor-brand" : ""}`}
                aria-label={t(`pricing.plans.${plan.key}.name`)}
              >
                {plan.popular ? (
                  <span className="absolute -top-3 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-tremor-full bg-tremor-brand px-3 py-0.5 text-tremor-label font-semibold text-tremor-brand-inverted">
                    {t("pricing.mostPopular")}
                  </span>
                ) : null}
                <h2 className="text-tremor-title font-semibold text-tremor-content-strong">
                  {t(`pricing.plans.${plan.key}.name`)}
                </h2>
                <p className="mt-1 text-tremor-default text-tremor-content">
                  {t(`pricing.plans.${plan.key}.description`)}
                </p>
                <p className="mt-6">
                  <span className="text-4xl font-bold text-tremor-content-strong">
                    {formatPriceGbp(plan.priceGbp, locale)}
                  </span>
                  <span className="text-tremor-default text-tremor-content"> {t("pricing.perMonth")}</span>
                </p>
                <ul className="mt-6 flex-1 space-y-3">
                  {plan.features.map((feature) => (
                    <li
                      key={feature}
                      className="flex items-start gap-2 text-tremor-default text-tremor-content-emphasis"
                    >
                      <RiCheckLine className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" aria-hidden="true" />
                      {t(`pricing.features.${feature}` as `pricing.features.sites5`)}
                    </li>
                  ))}
                </ul>
                <ButtonLink
                  to="/signup"
                  variant={plan.popular ? "primary" : "secondary"}
                  className="mt-8 w-full"
                >
                  {t("pricing.startTrial")}
                </ButtonLink>
              </Panel>
            </li>
          ))}
        </ul>

        <div className="mt-10 flex flex-wrap items-center justify-center gap-3">
          <ButtonLink to="/demo" variant="secondary">
            {t("pricing.viewDemo")}
          </ButtonLink>
          <ButtonLink to="/login" variant="light">
            {t("pricing.haveAccount")}
          </ButtonLink>
          <ButtonLink to="/" variant="light">
            {t("common.backHome")}
          </ButtonLink>
        </div>

        <section className="mx-auto mt-20 max-w-3xl" aria-labelledby="faq-title">
          <h2 id="faq-title" className="text-center text-2xl font-bold text-tremor-content-strong">
            {t("pricing.faqTitle")}
          </h2>
          <dl className="mt-8 space-y-4">
            {faqKeys.map((key) => (
              <Panel key={key}>
                <dt className="font-semibold text-tremor-content-strong">
                  {t(`pricing.faq.${key}.question`)}
                </dt>
                <dd className="mt-2 text-tremor-default text-tremor-content">
                  {t(`pricing.faq.${key}.answer`)}
                </dd>
              </Panel>
            ))}
          </dl>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}
