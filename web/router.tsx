import { createRouter, lazyRouteComponent, type RouterHistory } from "@tanstack/react-router";
import { FullPageSpinner } from "./components/ui/spinner";
import type { Translation } from "./lib/i18n/en";
import { routeTree } from "./routeTree.gen";

export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    defaultPreload: "intent",
    // The query cache decides freshness; the router need not cache loader results itself.
    defaultPreloadStaleTime: 0,
    // Shown rarely, so they download when first needed rather than with every page.
    defaultErrorComponent: lazyRouteComponent(() => import("./components/render-error"), "RenderErrorScreen"),
    defaultNotFoundComponent: lazyRouteComponent(() => import("./components/not-found"), "NotFoundCard"),
    defaultPendingComponent: FullPageSpinner,
    scrollRestoration: true,
  });
}

export type PageTitleKey = `pages.${keyof Translation["pages"]}`;

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface StaticDataRouteOption {
    /** The top bar's title for this screen. */
    titleKey?: PageTitleKey;
  }
}
