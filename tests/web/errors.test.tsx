import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderApplicationError } from "../../web/components/app-error";
import { AppErrorBoundary } from "../../web/components/error-boundary";

function Broken(): never {
  throw new Error("chart data missing");
}

describe("error screens", () => {
  it("shows the render failure screen with the message and a Reload Page button", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    // The screen is its own chunk, loaded when a render first fails.
    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeInTheDocument();
    expect(screen.getByText("The application encountered an error during rendering")).toBeInTheDocument();
    expect(screen.getByText("chart data missing")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Reload Page" })).toBeInTheDocument();
  });

  it("writes the Application Error screen when start-up fails", () => {
    const container = document.createElement("div");
    renderApplicationError(container, new Error("storage blocked"));
    expect(container).toHaveTextContent("Application Error");
    expect(container).toHaveTextContent("storage blocked");
    expect(container.querySelector("button")).toHaveTextContent("Reload Page");
  });
});
