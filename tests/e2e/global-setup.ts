import type { TestProject } from "vitest/node";
import { startApp } from "./app-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The provider sandbox `npm start` runs beside the app (its mail catcher at `/mail`). */
    sandboxUrl: string;
  }
}

/** The app the test files share, started as `npm start` serves it, on fresh storage. */
export default async function setup(project: TestProject) {
  const app = await startApp();
  project.provide("baseUrl", app.baseUrl);
  project.provide("sandboxUrl", app.sandboxUrl);
  return app.stop;
}
