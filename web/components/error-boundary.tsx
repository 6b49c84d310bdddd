import { Component, type ErrorInfo, lazy, type ReactNode, Suspense } from "react";

// Downloaded only when something fails to render.
const RenderErrorScreen = lazy(() =>
  import("./render-error").then((module) => ({ default: module.RenderErrorScreen })),
);

interface State {
  error: unknown;
}

/** Catches what escapes the router's own error handling (providers, the toaster, the router itself). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("Render failed", error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error !== null) {
      return (
        <Suspense fallback={null}>
          <RenderErrorScreen error={this.state.error} />
        </Suspense>
      );
    }
    return this.props.children;
  }
}
