import type { ExtractSchema } from "hono/types";
import type { ApiErrorCode } from "../../schema/api/errors";
// Types only: the server's routes as Hono types them, never its code (the bundle holds none of it).
import type { AppType } from "../../worker/app";
import { loadStringSet } from "./i18n";
import { clearSession, readStoredToken } from "./session";

export const NOT_AUTHENTICATED = "Not authenticated";

/**
 * A failed call. `message` is `${status}: ${body text or status text}` so retry rules can read it;
 * `code`, `serverError` and `details` are the parsed `{ error, code, details }` body. Screens show
 * `code` translated (web/lib/error-messages.ts), never `serverError`, which is English.
 */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly path: string,
    readonly serverError?: string,
    readonly details?: unknown,
    readonly retryAfterSeconds?: number,
    readonly code?: ApiErrorCode,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** The JSON body. */
  json?: unknown;
  /** Public endpoints (login, register, health) send no token. Default true. */
  auth?: boolean;
  signal?: AbortSignal;
}

/*
 * The calls' types come from the server's routes (worker/app.ts's AppType, read from the API
 * project's declarations): a path names a route as the server declares it (`/sites/:id`, without
 * `/api`), its parameters, query and JSON body are what the route validates, and the answer is what
 * its handler answers. A route the server changes changes its callers' types.
 */
type Routes = ExtractSchema<AppType>;
type RouteKey<M extends Method> = `$${Lowercase<M>}`;

/** The paths of the routes that answer `M`, as the client writes them. */
export type ApiPath<M extends Method> = {
  [Route in keyof Routes]: Route extends `/api${infer Path}`
    ? RouteKey<M> extends keyof Routes[Route]
      ? Path
      : never
    : never;
}[keyof Routes];

/** What Hono knows of one route and method: its input, and one entry per answer it can give. */
type Endpoint<M extends Method, P extends string> = `/api${P}` extends infer Route extends keyof Routes
  ? RouteKey<M> extends keyof Routes[Route]
    ? Routes[Route][RouteKey<M>]
    : never
  : never;

type JsonAnswerOf<E> = E extends { outputFormat: "json"; output: infer Output }
  ? Output
  : E extends { status: 204 }
    ? null
    : never;
/** The JSON a call answers when it succeeds (null for an answer without a body); CSV forms aside. */
export type ApiAnswer<M extends Method, P extends string> = JsonAnswerOf<Endpoint<M, P>>;

type InputOf<E> = E extends { input: infer Input } ? Input : never;
/** `"7" | "30"` as `7 | 30`. */
type NumbersOf<V> = V extends `${infer N extends number}` ? N : never;
/** A query value: text as the route reads it, or a number or flag written as text. */
type QueryValue<V> = string extends V ? V | number | boolean : V | NumbersOf<V>;
type CallInput<I> = (I extends { param: infer Param }
  ? { param: { [Name in keyof Param]: string } }
  : { param?: undefined }) &
  (I extends { query: infer Query }
    ? { query?: { [Name in keyof Query]?: QueryValue<Query[Name]> } }
    : { query?: undefined }) &
  (I extends { json: infer Json } ? { json: Json } : { json?: undefined });

/** A call's options: the route's parameters, query and body, with the token and cancel signal. */
export type CallOptions<M extends Method, P extends string> = Omit<RequestOptions, "json"> &
  CallInput<InputOf<Endpoint<M, P>>>;
/** The options may be left out when the route needs none of them. */
export type OptionsArgument<O> = object extends O ? [options?: O] : [options: O];

/** The GET paths whose answer is one page of a list, and the list's items. */
export type PagedPath = {
  [P in ApiPath<"GET">]: ApiAnswer<"GET", P> extends readonly unknown[] ? P : never;
}[ApiPath<"GET">];
export type PageItem<P extends PagedPath> =
  ApiAnswer<"GET", P> extends readonly (infer Item)[] ? Item : never;

/** `/sites/:id` with `{ id }`, and the query, as the URL to call (encoded as the server reads it). */
export function routeUrl(path: string, param: object = {}, query: object = {}): string {
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) =>
      [value].flat().flatMap((item) => (item === undefined ? [] : [[name, String(item)]])),
    ),
  ).toString();
  return (
    path.replace(/:(\w+)/g, (_match, name: string) =>
      encodeURIComponent((param as Record<string, string>)[name] as string),
    ) + (search && `?${search}`)
  );
}

export function apiPath(path: string): string {
  const withSlash = path.startsWith("/") ? path : `/${path}`;
  return withSlash === "/api" || withSlash.startsWith("/api/") ? withSlash : `/api${withSlash}`;
}

/** What a 401 on an authenticated call does: the token is no longer valid, so the session ends. */
let onUnauthorized: (() => void) | null = clearSession;

/** Replaces what a 401 on an authenticated call does (tests observe it). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/**
 * Screens show a failure's code in the reader's language: the messages load with the first failure.
 * Should their chunk fail to load, the failure itself is still what the caller gets.
 */
const failureMessages = () => loadStringSet("apiErrors").catch(() => undefined);

async function send(method: Method, path: string, options: RequestOptions): Promise<Response> {
  const url = apiPath(path);
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (options.auth !== false) {
    // Read synchronously so a request fired just before logout still carries its token.
    const token = readStoredToken();
    if (!token) {
      await failureMessages();
      throw new ApiRequestError(
        NOT_AUTHENTICATED,
        401,
        url,
        NOT_AUTHENTICATED,
        undefined,
        undefined,
        "unauthenticated",
      );
    }
    headers.Authorization = `Bearer ${token}`;
  }
  const init: RequestInit = { method, headers };
  if (options.json !== undefined) init.body = JSON.stringify(options.json);
  if (options.signal) init.signal = options.signal;
  return fetch(url, init);
}

async function toError(response: Response, url: string): Promise<ApiRequestError> {
  const messages = failureMessages();
  const bodyText = await response.text().catch(() => "");
  let serverError: string | undefined;
  let details: unknown;
  let code: ApiErrorCode | undefined;
  if (bodyText) {
    // The error contracts (and zod) load with the first failed call, not with every page.
    const { apiErrorBodySchema } = await import("../../schema/api/errors");
    try {
      const parsed = apiErrorBodySchema.safeParse(JSON.parse(bodyText));
      if (parsed.success) {
        serverError = parsed.data.error;
        details = parsed.data.details;
        code = parsed.data.code;
      }
    } catch {
      // A non-JSON body (a proxy's HTML page) stays in the message only.
    }
  }
  await messages;
  const retryAfter = Number(response.headers.get("Retry-After"));
  return new ApiRequestError(
    `${response.status}: ${bodyText || response.statusText}`,
    response.status,
    url,
    serverError,
    details,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    code,
  );
}

async function parseBody<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A successful answer, or the failure thrown (a 401 on an authenticated call ends the session). */
export async function respond(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await send(method, path, options);
  if (!response.ok) {
    const error = await toError(response, apiPath(path));
    if (response.status === 401 && options.auth !== false) onUnauthorized?.();
    throw error;
  }
  return response;
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  return parseBody<T>(await respond(method, path, options));
}

/** A typed call of one method. */
type Call<M extends Method> = <P extends ApiPath<M>>(
  path: P,
  ...[options]: OptionsArgument<CallOptions<M, P>>
) => Promise<ApiAnswer<M, P>>;

type UntypedOptions = RequestOptions & { param?: object; query?: object };

const call = <M extends Method>(method: M) =>
  ((path: string, options: UntypedOptions = {}) =>
    request<never>(method, routeUrl(path, options.param, options.query), options)) as Call<M>;

/** The one API client: JSON in and out, bearer token from localStorage, /api prefix added. */
export const api = {
  get: call("GET"),
  post: call("POST"),
  put: call("PUT"),
  patch: call("PATCH"),
  delete: call("DELETE"),
};

/** A read where 401 means "nothing for this visitor" rather than a failure. */
export const getOrNull = (async (path: string, options: UntypedOptions = {}) => {
  if (options.auth !== false && !readStoredToken()) return null;
  const url = routeUrl(path, options.param, options.query);
  const response = await send("GET", url, options);
  if (response.status === 401) return null;
  if (!response.ok) throw await toError(response, apiPath(url));
  return parseBody(response);
}) as <P extends ApiPath<"GET">>(
  path: P,
  ...[options]: OptionsArgument<CallOptions<"GET", P>>
) => Promise<ApiAnswer<"GET", P> | null>;
