import { describe, expect, it } from "vitest";
import { z } from "zod";
import { app } from "../../../worker/app";
import { responds, responseOf } from "../../../worker/lib/responds";
import { buildOpenApiDocument, openApiPath } from "../../../worker/openapi/document";
import { attach, connectProvider, createSite } from "../fleet-helpers";
import { call, expectStatus, registerOwner } from "../helpers";

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

/** The zod schema a served route declares for its success answer. */
const declaredResponse = (method: string, path: string) =>
  app.routes
    .filter((r) => r.method === method && r.path === path)
    .map((r) => responseOf(r.handler))
    .find((response) => response !== undefined);

/** The main resources: each must document its answer with a schema. */
const MAIN_RESOURCES: [method: string, path: string, status: string][] = [
  ["get", "/api/alerts", "200"],
  ["get", "/api/alerts/summary", "200"],
  ["post", "/api/alerts/{id}/resolve", "200"],
  ["get", "/api/admin/logs", "200"],
  ["get", "/api/dashboard/metrics", "200"],
  ["get", "/api/dashboard/summary", "200"],
  ["get", "/api/dashboard/systems", "200"],
  ["get", "/api/dashboard/series", "200"],
  ["get", "/api/analytics", "200"],
  ["get", "/api/reports/monthly-energy", "200"],
  ["get", "/api/sites", "200"],
  ["get", "/api/sites/enhanced", "200"],
  ["post", "/api/sites", "201"],
  ["get", "/api/sites/{id}", "200"],
  ["post", "/api/sites/from-systems", "201"],
  ["get", "/api/sites/{id}/weather-history", "200"],
  ["get", "/api/available-systems", "200"],
  ["get", "/api/portfolios", "200"],
  ["post", "/api/portfolios", "201"],
  ["get", "/api/api-keys", "200"],
  ["post", "/api/api-keys", "201"],
  ["get", "/api/organization/settings", "200"],
  ["get", "/api/alert-rules", "200"],
  ["get", "/api/notifications", "200"],
  ["get", "/api/weather/current", "200"],
];

describe("OpenAPI responses", () => {
  it("describes the main resources' answers with their zod schemas, and CSV where format=csv", async () => {
    const doc = await documentOf();
    for (const [method, path, status] of MAIN_RESOURCES) {
      const response = doc.paths[path]?.[method]?.responses[status] as
        | { content?: Record<string, { schema: { $ref?: string } }> }
        | undefined;
      const ref = response?.content?.["application/json"]?.schema.$ref;
      expect(ref, `${method} ${path}`).toMatch(/^#\/components\/schemas\/\w+$/);
      const schema = doc.components.schemas[ref?.split("/").at(-1) ?? ""] as Record<string, unknown>;
      expect(["object", "array"], `${method} ${path}`).toContain(schema?.type);
    }
    const alerts = doc.components.schemas.Alerts as {
      type: string;
      items: { properties: object; required: string[] };
    };
    expect(alerts.type).toBe("array");
    expect(Object.keys(alerts.items.properties)).toEqual(
      expect.arrayContaining(["id", "severity", "lostEnergyKwh", "history"]),
    );
    expect(alerts.items.required).toContain("createdAt");
    for (const path of [
      "/api/alerts",
      "/api/admin/logs",
      "/api/dashboard/metrics",
      "/api/analytics",
      "/api/reports/monthly-energy",
    ]) {
      const response = doc.paths[path]?.get?.responses["200"] as
        | { content?: Record<string, unknown> }
        | undefined;
      expect(Object.keys(response?.content ?? {}), path).toEqual(["application/json", "text/csv"]);
    }
    // The fleet's metrics come a page at a time and revalidate: documented with their links, total,
    // tag and the bodiless 304.
    const metrics = doc.paths["/api/dashboard/metrics"]?.get?.responses as Record<
      string,
      { headers?: object }
    >;
    expect(Object.keys(metrics)).toEqual(expect.arrayContaining(["200", "304"]));
    expect(Object.keys(metrics["200"]?.headers ?? {})).toEqual(["Link", "X-Total-Count", "ETag"]);
  });

  it("documents what the routes really answer: live answers parse with the declared schemas", async () => {
    const owner = await registerOwner();
    const systems = await connectProvider(owner, "solis");
    const site = await createSite(owner, { name: "Documented" });
    await attach(owner, site.id, systems[0]?.id ?? "");
    const reads: [path: string, url: string][] = [
      ["/api/alerts", "/api/alerts"],
      ["/api/alerts/summary", "/api/alerts/summary"],
      ["/api/admin/logs", "/api/admin/logs"],
      ["/api/dashboard/metrics", "/api/dashboard/metrics"],
      ["/api/dashboard/summary", "/api/dashboard/summary"],
      ["/api/dashboard/systems", "/api/dashboard/systems?page=1&pageSize=2&sort=system&q=a"],
      ["/api/dashboard/series", "/api/dashboard/series"],
      ["/api/analytics", "/api/analytics"],
      ["/api/analytics", `/api/analytics?system=${systems[0]?.id}&range=7d`],
      ["/api/reports/monthly-energy", "/api/reports/monthly-energy?month=2026-01"],
      ["/api/sites", "/api/sites"],
      ["/api/sites/enhanced", "/api/sites/enhanced"],
      ["/api/sites/:id", `/api/sites/${site.id}`],
      ["/api/sites/:id/weather-history", `/api/sites/${site.id}/weather-history?date=2026-01-15`],
      ["/api/available-systems", "/api/available-systems"],
      ["/api/portfolios", "/api/portfolios"],
      ["/api/api-keys", "/api/api-keys"],
      ["/api/organization/settings", "/api/organization/settings"],
      ["/api/alert-rules", "/api/alert-rules"],
      ["/api/notifications", "/api/notifications"],
    ];
    for (const [path, url] of reads) {
      const declared = declaredResponse("GET", path);
      expect(declared, path).toBeDefined();
      const body = await expectStatus(await call(url, { token: owner.token }), 200);
      const parsed = declared?.schema.safeParse(body);
      expect(parsed?.error?.issues ?? [], url).toEqual([]);
    }
    const created = await call("/api/portfolios", {
      method: "POST",
      token: owner.token,
      body: { name: "P" },
    });
    const createdBody = await expectStatus(created, 201);
    expect(declaredResponse("POST", "/api/portfolios")?.schema.safeParse(createdBody).success).toBe(true);
  });

  it("fails to build when two routes give one name to different response schemas", () => {
    const route = (path: string, handler: unknown) => ({ method: "GET", path: `/api/${path}`, handler });
    expect(() =>
      buildOpenApiDocument({
        routes: [
          route("a", responds("Thing", z.object({ a: z.string() }))),
          route("b", responds("Thing", z.object({ b: z.number() }))),
        ],
      }),
    ).toThrow(/Thing/);
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
