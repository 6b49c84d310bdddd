import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { bundleBudget } from "./scripts/lib/bundle-budget.ts";

export const routerPlugin = () =>
  tanstackRouter({
    target: "react",
    routesDirectory: "./web/routes",
    generatedRouteTree: "./web/routeTree.gen.ts",
    autoCodeSplitting: true,
  });

const routeChunk = (file: string) => `web/routes/${file}?tsr-split=component`;

/**
 * What each page may download before it is shown, in gzip bytes (the HTML entry is part of every
 * page). The enforced budgets sit just above today's sizes so nothing grows back; the targets
 * (100 KB for public pages, 250 KB for the dashboard) are printed until they are met.
 */
const budgets = bundleBudget({
  pages: [
    {
      name: "landing",
      chunks: ["index.html", routeChunk("index.tsx")],
      maxGzipBytes: 212_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "pricing",
      chunks: ["index.html", routeChunk("pricing.tsx")],
      maxGzipBytes: 212_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "login",
      chunks: ["index.html", routeChunk("login.tsx")],
      maxGzipBytes: 226_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "dashboard",
      chunks: ["index.html", routeChunk("app/route.tsx"), routeChunk("app/dashboard.tsx")],
      maxGzipBytes: 276_000,
      targetGzipBytes: 250_000,
    },
  ],
  // Spanish and French strings load only for visitors who use them, on top of any page.
  perVisitorExtras: ["web/lib/i18n/es.ts", "web/lib/i18n/fr.ts"],
});

export default defineConfig({
  root: ".",
  plugins: [routerPlugin(), react(), budgets],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    rolldownOptions: {
      // Tremor's package declares no `sideEffects`, so every component (and recharts behind the
      // charts) would be kept wherever one Tremor component is imported. Its modules only export.
      treeshake: { moduleSideEffects: [{ test: /node_modules\/@tremor\/react\//, sideEffects: false }] },
      output: {
        codeSplitting: {
          // zod and its configuration load as one chunk, so `jitless` is set before any schema is
          // built: otherwise zod probes `Function("")`, which the CSP refuses (a reported violation).
          groups: [
            { name: "zod", test: /node_modules[\\/]zod[\\/]|web[\\/]lib[\\/]zod-config\.ts$/ },
            // Every page needs the session, which closes the live socket: one chunk, not three small ones
            // that each lazily loaded screen importing one of them would otherwise split off.
            { name: "session", test: /web[\\/]lib[\\/](session|live)\.ts$|schema[\\/]domain\.ts$/ },
          ],
        },
      },
    },
  },
  server: {
    // `vite` alone serves the client with hot reload against the worker on 8787.
    proxy: { "/api": "http://127.0.0.1:8787", "/ws": { target: "ws://127.0.0.1:8787", ws: true } },
  },
});
