import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "../../web/lib/i18n";
import { mockApi, renderApp } from "./helpers";

/** Each promise of the landing page and the screen that keeps it, in each language. */
const promises = {
  en: [
    ["Expected yield for every system", "/app/analytics"],
    ["Fault alerts", "/app/alerts"],
    ["Weather impact analysis", "/app/losses"],
    ["Portfolios", "/app/portfolios"],
    ["Losses ranked by cost", "/app/losses"],
    ["See the losses", "/app/losses"],
  ],
  es: [
    ["Producción esperada de cada sistema", "/app/analytics"],
    ["Alertas de averías", "/app/alerts"],
    ["Análisis del impacto meteorológico", "/app/losses"],
    ["Carteras", "/app/portfolios"],
    ["Pérdidas ordenadas por coste", "/app/losses"],
    ["Ver las pérdidas", "/app/losses"],
  ],
  fr: [
    ["Production attendue de chaque système", "/app/analytics"],
    ["Alertes de pannes", "/app/alerts"],
    ["Analyse de l’impact météo", "/app/losses"],
    ["Portefeuilles", "/app/portfolios"],
    ["Pertes classées par coût", "/app/losses"],
    ["Voir les pertes", "/app/losses"],
  ],
} as const;

describe("the landing page's promises", () => {
  it.each(Object.entries(promises))("link to the screens that keep them (%s)", async (language, links) => {
    mockApi({});
    await i18n.changeLanguage(language);
    renderApp("/");
    const features = (await screen.findAllByRole("heading", { level: 2 }))[1]?.closest(
      "section",
    ) as HTMLElement;
    for (const [name, href] of links) {
      expect(within(features).getByRole("link", { name }), name).toHaveAttribute("href", href);
    }
    // No figure the product does not compute: the "15 % average performance increase" is gone.
    expect(document.body.textContent).not.toMatch(/15\s?%/);
    expect(document.body.textContent).not.toMatch(/\bAI\b|\bIA\b/);
  });
});
