import { describe, expect, it } from "vitest";
import { app } from "../../../worker/app";
import { openApiPath } from "../../../worker/openapi/document";
import { call, expectStatus } from "../helpers";

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } };
  responses: Record<string, unknown>;
  description?: string;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const documentOf = async () => expectStatus<Document>(await call("/api/openapi.json"), 200);

/** Every method and path the app serves under /api and at /ws. */
const servedRoutes = () => [
  ...new Set(
    app.routes
      .filter((r) => METHODS.has(r.method) && (r.path.startsWith("/api") || r.path === "/ws"))
      .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`),
  ),
];

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document naming every served route", async () => {
    const doc = await documentOf();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: "Sunfleet API" });
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(50);
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !served.includes(route))).toEqual([]);
  });

  it("is structurally valid: unique operation ids, path parameters declared, responses and refs resolvable", async () => {
    const doc = await documentOf();
    const ids = new Set<string>();
    const text = JSON.stringify(doc);
    for (const ref of text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(doc.components.schemas).toHaveProperty(ref[1] ?? "");
    }
    for (const [path, methods] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/(api|ws)/);
      expect(path).not.toContain(":");
      for (const [method, op] of Object.entries(methods)) {
        expect(["get", "post", "put", "patch", "delete"]).toContain(method);
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          expect(op.parameters.some((p) => p.in === "path" && p.name === name && p.required)).toBe(true);
        }
        for (const parameter of op.parameters) expect(["path", "query"]).toContain(parameter.in);
      }
    }
  });

  it("describes inputs from the zod schemas the routes validate with", async () => {
    const doc = await documentOf();
    const month = doc.paths["/api/reports/monthly-energy"]?.get?.parameters.find((p) => p.name === "month");
    expect(month).toMatchObject({ in: "query", required: true, schema: { type: "string" } });
    expect(month?.schema.pattern).toBeDefined();
    const createKey = doc.paths["/api/api-keys"]?.post?.requestBody?.content["application/json"].schema;
    expect(createKey).toMatchObject({
      type: "object",
      required: ["name", "scope"],
      properties: { scope: { enum: ["read", "write"] } },
    });
    const alertsFormat = doc.paths["/api/alerts"]?.get?.parameters.find((p) => p.name === "format");
    expect(alertsFormat?.schema).toMatchObject({ enum: ["json", "csv"] });
    expect(doc.paths["/api/api-keys/{id}"]?.delete?.parameters).toEqual([
      expect.objectContaining({ name: "id", in: "path", required: true }),
    ]);
  });

  it("documents the live channel: subprotocol and every message type", async () => {
    const doc = await documentOf();
    const ws = doc.paths["/ws"]?.get;
    expect(ws?.description).toContain('"sunfleet"');
    const live = JSON.stringify(doc.components.schemas.LiveMessage);
    for (const type of ["connected", "pong", "solis_realtime_update", "realtime_update", "alerts_changed"]) {
      expect(live).toContain(`"${type}"`);
    }
  });
});

describe("GET /api/docs", () => {
  it("is a self-contained reference page listing every documented path", async () => {
    const res = await call("/api/docs");
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const doc = await documentOf();
    for (const path of Object.keys(doc.paths)) expect(html).toContain(`<code>${path}</code>`);
    expect(html).toContain("alerts_changed");
    // Nothing loaded from elsewhere: works offline and under the CSP.
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//i);
  });
});
