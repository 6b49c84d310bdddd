import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export const routerPlugin = () =>
  tanstackRouter({
    target: "react",
    routesDirectory: "./web/routes",
    generatedRouteTree: "./web/routeTree.gen.ts",
    autoCodeSplitting: true,
  });

export default defineConfig({
  root: ".",
  plugins: [routerPlugin(), react()],
  build: { outDir: "dist", emptyOutDir: true },
  server: {
    // `vite` alone serves the client with hot reload against the worker on 8787.
    proxy: { "/api": "http://127.0.0.1:8787", "/ws": { target: "ws://127.0.0.1:8787", ws: true } },
  },
});
