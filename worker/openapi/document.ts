import type { Hono } from "hono";
import { type ZodType, z } from "zod";
import { apiErrorBodySchema } from "../../schema/api/errors";
import { runningSyncSchema } from "../../schema/api/providers";
import {
  LIVE_CLOSE_ACCESS_REVOKED,
  LIVE_SUBPROTOCOL,
  liveFrameSchema,
  MAX_WATCHED_IDS,
} from "../../schema/live";
import { type DescribedResponse, responseOf } from "../lib/responds";
import { type DescribedInput, INPUT_DESCRIPTION } from "../lib/validate";
import {
  MAX_SOCKETS_PER_SESSION,
  SOCKET_CLOSE_POLICY_VIOLATION,
  SOCKET_MESSAGE_WINDOW_MS,
  SOCKET_MESSAGES_PER_WINDOW,
} from "../realtime/socket-session";

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
/** Routes anyone may call; every other one needs a bearer token (a session token or an API key). */
const PUBLIC_PATHS = [
  /^\/api\/health/,
  /^\/api\/auth\/(register|login|password-reset|invites|verify-email$)/,
  /^\/api\/openapi\.json$/,
  /^\/api\/docs$/,
  /^\/api\/unsubscribe$/,
];

const jsonSchema = (schema: ZodType, io: "input" | "output" = "input"): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
};

/** Hono's `/sites/:id` as OpenAPI's `/sites/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

function inputsOf(handler: unknown): DescribedInput | undefined {
  return typeof handler === "function"
    ? ((handler as unknown as Record<symbol, DescribedInput | undefined>)[INPUT_DESCRIPTION] ?? undefined)
    : undefined;
}

function parametersOf(path: string, inputs: DescribedInput[]) {
  const parameters: Record<string, unknown>[] = [];
  const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "");
  const paramSchema = inputs.find((i) => i.target === "param");
  const paramProps = paramSchema
    ? ((jsonSchema(paramSchema.schema).properties ?? {}) as Record<string, JsonSchema>)
    : {};
  for (const name of pathNames) {
    parameters.push({ name, in: "path", required: true, schema: paramProps[name] ?? { type: "string" } });
  }
  const query = inputs.find((i) => i.target === "query");
  if (query) {
    const schema = jsonSchema(query.schema);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      parameters.push({ name, in: "query", required: required.has(name), schema: property });
    }
  }
  return parameters;
}

/**
 * The success answer: the route's declared schema (named under components, as the server sends
 * it) and its CSV form; a generic description for a route that declares none.
 */
function successResponse(response: DescribedResponse | undefined, schemas: Record<string, JsonSchema>) {
  if (!response) return { "200": { description: "Success (201 for a creation, 204 without a body)" } };
  const existing = schemas[response.name];
  const schema = jsonSchema(response.schema, "output");
  if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) {
    throw new Error(`Two different response schemas are named ${response.name}`);
  }
  schemas[response.name] = schema;
  const content: Record<string, unknown> = {
    "application/json": { schema: { $ref: `#/components/schemas/${response.name}` } },
  };
  if (response.csv) {
    content["text/csv"] = { schema: { type: "string" } };
  }
  const description = { 200: "Success", 201: "Created", 202: "Accepted" }[response.status];
  const success = {
    description: response.csv
      ? `${description}; with format=csv a CSV file (UTF-8 with BOM, units in the header row, ISO 8601 times with offset)`
      : description,
    content,
  };
  const headers: Record<string, unknown> = {};
  if (response.paged) {
    headers.Link = {
      description: 'The first, previous, next and last pages (RFC 8288: `<…?page=2>; rel="next"`)',
      schema: { type: "string" },
    };
    headers["X-Total-Count"] = { description: "Items over all pages", schema: { type: "integer" } };
  }
  if (response.etag) {
    headers.ETag = { description: "The answer's tag, for If-None-Match", schema: { type: "string" } };
  }
  const answered = {
    [String(response.status)]: Object.keys(headers).length ? { ...success, headers } : success,
  };
  if (!response.etag) return answered;
  return {
    ...answered,
    "304": { description: "Not modified: the If-None-Match header names the current tag (no body)" },
  };
}

const liveChannelDescription = `Live updates over a WebSocket at \`/ws\`. Offer two subprotocols: \`${LIVE_SUBPROTOCOL}\` and a session token (\`new WebSocket(url, ["${LIVE_SUBPROTOCOL}", token])\`); the server echoes \`${LIVE_SUBPROTOCOL}\`. Send the text \`ping\` to get a \`pong\`. The server closes with code ${LIVE_CLOSE_ACCESS_REVOKED} when the member loses access, and with ${SOCKET_CLOSE_POLICY_VIOLATION} after more than ${SOCKET_MESSAGES_PER_WINDOW} messages in ${SOCKET_MESSAGE_WINDOW_MS / 1000} s. A session holds at most ${MAX_SOCKETS_PER_SESSION} sockets: one more answers 429 with \`Retry-After\`. Every message is JSON \`{ type, data }\`, described by \`LiveMessage\`: \`connected\`, \`pong\`, \`solis_realtime_update\`, \`realtime_update\` (one system's new live values), \`alerts_changed\` (\`openCount\`) and \`sync_progress\` (a sync run's pages done and total, systems stored and status, or a history run's days done and total, after each stored unit and at its end). Messages sent together arrive as one frame \`{ type: "batch", data: [message, …] }\`, in order: a stored page's systems come as one batch. A socket receives every system's updates until it sends \`{ "type": "watch", "data": { "systemIds": […], "siteIds": […] } }\` (at most ${MAX_WATCHED_IDS} ids in all; \`data: null\` watches everything again): then each page brings the updates of the systems it names and of the sites' systems, and one \`systems_updated\` (\`count\`) for the rest. The server answers a watch with \`watching\` (\`count\` of ids, null for everything) once it applies. A message the server cannot take is answered with \`error\` (\`invalid_message\`) and changes nothing.`;

/**
 * The OpenAPI 3.1 document of every route the app serves, built by walking the app's routes and
 * reading the zod schema each validator checks.
 */
export function buildOpenApiDocument(
  app: Hono<never> | { routes: { method: string; path: string; handler: unknown }[] },
) {
  const operations = new Map<
    string,
    { method: string; path: string; inputs: DescribedInput[]; response?: DescribedResponse }
  >();
  const schemas: Record<string, JsonSchema> = {};
  for (const route of app.routes) {
    if (!METHODS.has(route.method)) continue;
    if (!route.path.startsWith("/api") && route.path !== "/ws") continue;
    const path = openApiPath(route.path);
    const key = `${route.method} ${path}`;
    const entry = operations.get(key) ?? { method: route.method, path, inputs: [] };
    const input = inputsOf(route.handler);
    if (input) entry.inputs.push(input);
    entry.response ??= responseOf(route.handler);
    operations.set(key, entry);
  }

  const paths: Record<string, Record<string, Operation>> = {};
  for (const { method, path, inputs, response } of operations.values()) {
    const isPublic = PUBLIC_PATHS.some((pattern) => pattern.test(path));
    const operation: Operation = {
      operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      tags: [path.split("/")[2] ?? "live"],
      parameters: parametersOf(path, inputs),
      responses: {
        ...successResponse(response, schemas),
        "400": {
          description: "Invalid input",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        ...(isPublic
          ? {}
          : {
              "401": {
                description: "Missing, invalid or revoked token",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
              },
            }),
      },
    };
    if (!isPublic) operation.security = [{ bearer: [] }];
    const body = inputs.find((i) => i.target === "json");
    if (body)
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: jsonSchema(body.schema) } },
      };
    if (path === "/ws") {
      operation.summary = "Live channel (WebSocket)";
      operation.description = liveChannelDescription;
      operation.responses = {
        "101": {
          description: "Switching protocols; messages follow LiveMessage",
          content: { "application/json": { schema: { $ref: "#/components/schemas/LiveMessage" } } },
        },
        "401": { description: "Missing or invalid token" },
        "429": { description: "The session holds as many sockets as it may; try again after Retry-After" },
      };
      operation.security = [];
    }
    if (method === "POST" && path === "/api/providers/{provider}/sync") {
      operation.description =
        "Starts a sync run. Answers its outcome and counts (200) when it ends within 20 s, otherwise 202 with the run's id and progress; the run goes on and reports to the live channel (`sync_progress`) and `GET /api/sync-runs/{id}`. 409 while another run of the connection is going.";
      operation.responses = {
        ...(operation.responses as Record<string, unknown>),
        "202": {
          description: "The run goes on",
          content: { "application/json": { schema: jsonSchema(runningSyncSchema, "output") } },
        },
      };
    }
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Sunfleet API",
      version: "1",
      description: `Fleet monitoring for solar professionals. Authenticate with \`Authorization: Bearer <token>\`: a session token from \`POST /api/auth/login\`, or an organisation API key (\`sfk_…\`). List endpoints marked with a \`format\` query parameter answer CSV with \`format=csv\`.\n\n${liveChannelDescription}`,
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Error: jsonSchema(apiErrorBodySchema, "output"),
        LiveMessage: jsonSchema(liveFrameSchema, "output"),
        ...schemas,
      },
    },
    paths,
  };
}
