import type { QueryClient } from "@tanstack/react-query";
import { createContext } from "react";

/**
 * A query cache given to the App (tests give theirs); without one QueryScope makes the app's own on
 * first use. Apart from QueryScope so the App's first download carries no query code.
 */
export const GivenQueryClient = createContext<QueryClient | null>(null);
