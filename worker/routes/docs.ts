import { Hono } from "hono";
import type { AppEnv } from "../hono-env";
import { buildOpenApiDocument } from "../openapi/document";
import { referencePage } from "../openapi/reference-page";

export type RoutedApp = Parameters<typeof buildOpenApiDocument>[0];

/** The app the document describes; `app.ts` sets it once the app is built. */
export const documentedApp: { current: RoutedApp } = { current: { routes: [] } };

let doc: ReturnType<typeof buildOpenApiDocument> | undefined;
const document = () => {
  doc ??= buildOpenApiDocument(documentedApp.current);
  return doc;
};

/** The OpenAPI document and its reference page, built from the app they describe. */
export const docsRoutes = new Hono<AppEnv>()
  .get("/openapi.json", (c) => c.json(document()))
  .get("/docs", (c) => c.html(referencePage(document())));
