import { createRootRoute, Outlet } from "@tanstack/react-router";

// The session's upkeep (profile, language, cache) runs with the screens that fetch: components/query-scope.tsx.
export const Route = createRootRoute({ component: Outlet });
