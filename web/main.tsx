import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { renderApplicationError } from "./components/app-error";
import { initI18n } from "./lib/i18n";
import { createAppRouter } from "./router";
import "./styles.css";

async function start(container: HTMLElement) {
  try {
    // The saved language's strings (English by default) are fetched first so the first render is translated.
    await initI18n();
    const router = createAppRouter();
    createRoot(container).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  } catch (error) {
    console.error("Application failed to start", error);
    renderApplicationError(container, error);
  }
}

const container = document.getElementById("root");
if (container) void start(container);

// Unhandled errors and rejections are only logged: the screen that caused them shows its own error state.
window.addEventListener("unhandledrejection", (event) => {
  console.error("Unhandled rejection", event.reason);
});
