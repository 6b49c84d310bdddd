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
 * page), with the largest language's strings added. The dashboard is held to its 250 KB target; the
 * public pages' budgets sit just above today's sizes so nothing grows back, and their 100 KB target
 * is printed until it is met.
 */
const budgets = bundleBudget({
  pages: [
    {
      name: "landing",
      chunks: ["index.html", routeChunk("index.tsx")],
      maxGzipBytes: 179_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "pricing",
      chunks: ["index.html", routeChunk("pricing.tsx")],
      maxGzipBytes: 180_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "login",
      chunks: ["index.html", routeChunk("login.tsx")],
      maxGzipBytes: 217_000,
      targetGzipBytes: 100_000,
    },
    {
      name: "dashboard",
      chunks: ["index.html", routeChunk("app/route.tsx"), routeChunk("app/dashboard.tsx")],
      maxGzipBytes: 250_000,
      targetGzipBytes: 250_000,
    },
  ],
  // Each language's strings load on top of any page, one language per visitor.
  perVisitorExtras: ["web/lib/i18n/en.ts", "web/lib/i18n/es.ts", "web/lib/i18n/fr.ts"],
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
