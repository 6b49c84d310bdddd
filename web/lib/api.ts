import type { ApiErrorCode } from "../../schema/api/errors";
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
  body?: unknown;
  /** Public endpoints (login, register, health) send no token. Default true. */
  auth?: boolean;
  signal?: AbortSignal;
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
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
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

/** The one API client: JSON in and out, bearer token from localStorage, /api prefix added. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("GET", path, options),
  /** A read where 401 means "nothing for this visitor" rather than a failure. */
  getOrNull: async <T>(path: string, options?: Omit<RequestOptions, "body">): Promise<T | null> => {
    if (options?.auth !== false && !readStoredToken()) return null;
    const response = await send("GET", path, options ?? {});
    if (response.status === 401) return null;
    if (!response.ok) throw await toError(response, apiPath(path));
    return parseBody<T>(response);
  },
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PATCH", path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
  /** A file answer (a CSV export): the body and the filename its Content-Disposition names. */
  download: async (path: string): Promise<{ blob: Blob; filename: string }> => {
    const response = await send("GET", path, {});
    if (!response.ok) {
      const error = await toError(response, apiPath(path));
      if (response.status === 401) onUnauthorized?.();
      throw error;
    }
    const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
    return { blob: await response.blob(), filename: named?.[1] ?? "export.csv" };
  },
};
