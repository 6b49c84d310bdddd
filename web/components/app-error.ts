import { i18n } from "../lib/i18n";
import { en } from "../lib/i18n/en";

/**
 * Written to the page with the DOM alone: when start-up fails, React or i18next may be what failed.
 * The text comes from the translations when they loaded, else from the bundled English resource.
 */
export function renderApplicationError(container: HTMLElement, error: unknown): void {
  const translate = (key: "appErrorTitle" | "appErrorBody" | "reload") =>
    i18n.isInitialized ? i18n.t(`errors.${key}`) : en.errors[key];
  const wrapper = document.createElement("div");
  wrapper.setAttribute("role", "alert");
  wrapper.style.cssText = "max-width:32rem;margin:15vh auto;padding:1.5rem;font-family:system-ui,sans-serif";
  const title = document.createElement("h1");
  title.textContent = translate("appErrorTitle");
  title.style.cssText = "font-size:1.25rem;font-weight:600;margin:0 0 .5rem";
  const body = document.createElement("p");
  body.textContent = translate("appErrorBody");
  const detail = document.createElement("pre");
  detail.textContent = error instanceof Error ? error.message : String(error);
  detail.style.cssText = "white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:.375rem";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = translate("reload");
  reload.style.cssText =
    "margin-top:1rem;padding:.5rem 1rem;border-radius:.5rem;background:#2563eb;color:#fff;border:0";
  reload.addEventListener("click", () => window.location.reload());
  wrapper.append(title, body, detail, reload);
  container.replaceChildren(wrapper);
}
