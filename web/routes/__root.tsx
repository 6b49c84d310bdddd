import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { SessionBootstrap } from "../components/session-bootstrap";
import type { RouterContext } from "../router";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <SessionBootstrap />
      <Outlet />
    </>
  );
}
