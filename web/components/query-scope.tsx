import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useContext, useState } from "react";
import { appQueryClient, bindToSession } from "../lib/query-client";
import { GivenQueryClient } from "./query-scope-context";
import { SessionBootstrap } from "./session-bootstrap";

/**
 * Server data (TanStack Query) and the signed-in session's upkeep, for the screens that use them: the
 * app's, the invite acceptance, the password reset. The public pages render outside it, so their
 * first download carries no query code.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  const given = useContext(GivenQueryClient);
  const [client] = useState(() => (given ? bindToSession(given) : appQueryClient()));
  return (
    <QueryClientProvider client={client}>
      <SessionBootstrap />
      {children}
    </QueryClientProvider>
  );
}
