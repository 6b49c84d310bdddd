import type { QueryClient } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { AppErrorBoundary } from "./components/error-boundary";
import { GivenQueryClient } from "./components/query-scope-context";
import type { createAppRouter } from "./router";

// The toaster downloads after the first screen: no page raises a toast before it is shown.
const Toaster = lazy(() => import("sonner").then((module) => ({ default: module.Toaster })));

/** One toast at a time, shown for 5 s. */
export const TOAST_DURATION_MS = 5000;

interface AppProps {
  /** The query cache of the screens that fetch (tests give theirs); made on first use when absent. */
  queryClient?: QueryClient;
  router: ReturnType<typeof createAppRouter>;
}

export function App({ queryClient, router }: AppProps) {
  return (
    <AppErrorBoundary>
      <GivenQueryClient.Provider value={queryClient ?? null}>
        <RouterProvider router={router} />
        <Suspense fallback={null}>
          <Toaster
            visibleToasts={1}
            duration={TOAST_DURATION_MS}
            position="bottom-right"
            richColors
            closeButton
          />
        </Suspense>
      </GivenQueryClient.Provider>
    </AppErrorBoundary>
  );
}
