import { i18n, publicLanguageLoaders } from "../lib/i18n";
import type { PublicTranslation } from "../lib/i18n/public/en";

type AppErrorKey = "appErrorTitle" | "appErrorBody" | "reload";

/**
 * Written to the page with the DOM alone: when start-up fails, React or i18next may be what failed.
 * The text comes from the translations when they loaded, else from the English strings fetched now
 * (the error itself and the reload button are there at once).
 */
export function renderApplicationError(container: HTMLElement, error: unknown): void {
  const texts: Partial<Record<AppErrorKey, Text>> = {};
  const translate = (key: AppErrorKey) => {
    const text = document.createTextNode(i18n.isInitialized ? i18n.t(`errors.${key}`) : "");
    texts[key] = text;
    return text;
  };
  const wrapper = document.createElement("div");
  wrapper.setAttribute("role", "alert");
  wrapper.style.cssText = "max-width:32rem;margin:15vh auto;padding:1.5rem;font-family:system-ui,sans-serif";
  const title = document.createElement("h1");
  title.append(translate("appErrorTitle"));
  title.style.cssText = "font-size:1.25rem;font-weight:600;margin:0 0 .5rem";
  const body = document.createElement("p");
  body.append(translate("appErrorBody"));
  const detail = document.createElement("pre");
  detail.textContent = error instanceof Error ? error.message : String(error);
  detail.style.cssText = "white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:.375rem";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.append(translate("reload"));
  reload.style.cssText =
    "margin-top:1rem;padding:.5rem 1rem;border-radius:.5rem;background:#2563eb;color:#fff;border:0";
  reload.addEventListener("click", () => window.location.reload());
  wrapper.append(title, body, detail, reload);
  container.replaceChildren(wrapper);
  if (!i18n.isInitialized) {
    void publicLanguageLoaders.en().then(
      (en: PublicTranslation) => {
        for (const [key, text] of Object.entries(texts) as [AppErrorKey, Text][]) text.data = en.errors[key];
      },
      () => undefined,
    );
  }
}
