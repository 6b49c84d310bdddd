import type { MiddlewareHandler } from "hono";
import type { ZodType } from "zod";

/** What a route answers on success, kept on the route so the OpenAPI document describes it. */
export interface DescribedResponse {
  /** The schema's name under the document's components. */
  name: string;
  schema: ZodType;
  status: 200 | 201 | 202;
  /** The route also answers `text/csv` with `?format=csv`. */
  csv: boolean;
  /** The answer carries an ETag, and If-None-Match with the current tag answers 304 without a body. */
  etag: boolean;
  /** The answer is one page of a list, with `Link` (first, prev, next, last) and `X-Total-Count` headers. */
  paged: boolean;
}
export const RESPONSE_DESCRIPTION = Symbol("response description");

/**
 * Declares a route's success answer with the zod schema its type comes from, for the OpenAPI
 * document; a middleware that only passes on. Tests parse the real answers with the same schema.
 */
export const responds = (
  name: string,
  schema: ZodType,
  options: { status?: 200 | 201 | 202; csv?: boolean; etag?: boolean; paged?: boolean } = {},
): MiddlewareHandler =>
  Object.assign(async (_c: unknown, next: () => Promise<void>) => next(), {
    [RESPONSE_DESCRIPTION]: {
      name,
      schema,
      status: options.status ?? 200,
      csv: options.csv ?? false,
      etag: options.etag ?? false,
      paged: options.paged ?? false,
    } satisfies DescribedResponse,
  });

export const responseOf = (handler: unknown): DescribedResponse | undefined =>
  typeof handler === "function"
    ? (handler as unknown as Record<symbol, DescribedResponse | undefined>)[RESPONSE_DESCRIPTION]
    : undefined;
