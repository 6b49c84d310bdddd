import { Component, type ErrorInfo, type ReactNode } from "react";
import { RenderErrorScreen } from "./render-error";

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
    if (this.state.error !== null) return <RenderErrorScreen error={this.state.error} />;
    return this.props.children;
  }
}
