import { fileURLToPath } from "node:url";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { bundleBudget } from "./scripts/lib/bundle-budget.ts";
import { iconsPerModule } from "./scripts/lib/icons-per-module.ts";

export const routerPlugin = () =>
  tanstackRouter({
    target: "react",
    routesDirectory: "./web/routes",
    generatedRouteTree: "./web/routeTree.gen.ts",
    autoCodeSplitting: true,
  });

const routeChunk = (file: string) => `web/routes/${file}?tsr-split=component`;

const languages = ["en", "es", "fr"];
/**
 * Each language's strings load on top of any page, one language per visitor: the public pages'
 * common strings, with the page's own set (lib/i18n `stringSets`) where it has one.
 */
const stringsOf = (...sets: string[]) =>
  languages.map((language) => sets.map((set) => `web/lib/i18n/${set}/${language}.ts`));
const appStrings = languages.map((language) => [
  `web/lib/i18n/public/${language}.ts`,
  `web/lib/i18n/${language}.ts`,
]);

/**
 * What each page may download before it is shown, in gzip bytes (the HTML entry is part of every
 * page), with the largest language's strings added. Each budget sits just above today's size so
 * nothing grows back. React with React DOM, TanStack Router and i18next alone are about 88 KB of
 * every page.
 */
/** The entry chunk, its stylesheet and the bundler's runtime: every page loads them first. */
const loadedByEveryPage = /(^|\/)(index|rolldown-runtime)-[^/]*\.(js|css)$/;

const budgets = bundleBudget({
  pages: [
    {
      name: "landing",
      chunks: ["index.html", routeChunk("index.tsx")],
      perVisitorExtras: stringsOf("public", "landing"),
      maxGzipBytes: 100_000,
    },
    {
      name: "pricing",
      chunks: ["index.html", routeChunk("pricing.tsx")],
      perVisitorExtras: stringsOf("public", "pricing"),
      maxGzipBytes: 100_000,
    },
    {
      name: "login",
      chunks: ["index.html", routeChunk("login.tsx")],
      perVisitorExtras: stringsOf("public"),
      maxGzipBytes: 100_000,
    },
    {
      name: "dashboard",
      chunks: ["index.html", routeChunk("app/route.tsx"), routeChunk("app/dashboard.tsx")],
      perVisitorExtras: appStrings,
      maxGzipBytes: 210_500,
    },
  ],
});

export default defineConfig({
  root: ".",
  plugins: [iconsPerModule(), routerPlugin(), react(), budgets],
  resolve: {
    // The client's zod is zod with its CSP-safe configuration applied first (web/lib/zod-config.ts).
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL("./web/lib/zod-config.ts", import.meta.url)) },
      // React 18 has useSyncExternalStore: the shim's copy for older Reacts would be dead weight.
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: "use-sync-external-store/with-selector",
      },
    ],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    modulePreload: {
      // Browsers without modulepreload fetch the page's chunks as they import them: no polyfill.
      polyfill: false,
      // The entry lists no lazy chunk's imports: those lists cost every page 2.6 KB. A route's chunk
      // fetches its own imports when it runs, and links fetch a route's code on hover (the router's
      // intent preloading). Lazy chunks loaded by other chunks (the settings dialog, the charts)
      // fetch their imports alongside them, less what every page has already loaded.
      resolveDependencies: (_file, deps, { hostId, hostType }) => {
        if (hostType !== "js") return deps;
        if (loadedByEveryPage.test(hostId)) return [];
        return deps.filter((dep) => !loadedByEveryPage.test(dep));
      },
    },
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
            // Everything the entry imports statically runs on every page anyway: one chunk rather than a
            // dozen shared pieces (each with its own imports and exports) saves every page 4.6 KB.
            { name: "index", tags: ["$initial"] },
            // The pieces every public page shows (logo, header, footer, buttons, panels): one chunk
            // rather than one per piece.
            {
              name: "public-ui",
              test: /web[\\/]components[\\/](layout[\\/](logo|public-header|public-footer)|ui[\\/](button-link|button-styles|panel|field))\.tsx?$|remixicon:Ri(Sun|ArrowLeft)Line/,
            },
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
