import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The one error type routes and services throw; the app's error handler turns it into JSON. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError(400, message, details);
export const notAuthenticated = () => new ApiError(401, "Not authenticated");
export const forbidden = (message = "You do not have permission to do this") => new ApiError(403, message);
export const notFound = (what = "Resource") => new ApiError(404, `${what} not found`);
export const conflict = (message: string, details?: unknown) => new ApiError(409, message, details);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, { retryAfterSeconds }, { "Retry-After": String(retryAfterSeconds) });
export const serviceUnavailable = (message: string) => new ApiError(503, message);
