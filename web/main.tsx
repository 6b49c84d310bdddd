import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { renderApplicationError } from "./components/app-error";
import { initI18n } from "./lib/i18n";
import { createQueryClient } from "./lib/query-client";
import { createAppRouter } from "./router";
import "./styles.css";

const container = document.getElementById("root");

if (container) {
  try {
    initI18n();
    const queryClient = createQueryClient();
    const router = createAppRouter(queryClient);
    createRoot(container).render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  } catch (error) {
    console.error("Application failed to start", error);
    renderApplicationError(container, error);
  }
}

// SPEC section 8: unhandled errors and rejections are only logged.
window.addEventListener("unhandledrejection", (event) => {
  console.error("Unhandled rejection", event.reason);
});
