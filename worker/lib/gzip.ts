import type { TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";

/** Gzip through the runtime's own zlib (CompressionStream), for answers compressed once and served many times. */
export async function gzipText(text: string): Promise<Uint8Array> {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/** The plain bytes of a gzip body, as a stream (for a client that does not accept gzip). */
export function gunzipStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
}

export async function gunzipText(bytes: Uint8Array): Promise<string> {
  return new Response(gunzipStream(bytes)).text();
}

/** Whether a request's Accept-Encoding takes gzip (q=0 refuses it). */
export function acceptsGzip(acceptEncoding: string | undefined | null): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

declare const holds: unique symbol;
/** JSON text that keeps the type of the value it was written from. */
export type JsonText<T> = string & { readonly [holds]?: T };
/** Gzipped JSON text that keeps the type of the value it was written from. */
export type JsonGzip<T> = Uint8Array & { readonly [holds]?: T };

export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value);

/**
 * An answer typed as `c.json` types its own, for the client's types derived from the routes: the
 * value as JSON parsing gives it back.
 */
export type JsonResponse<T> = Response & TypedResponse<JSONParsed<T>, 200, "json">;

/**
 * A JSON answer as the client takes it: gzipped when it accepts gzip (sent as held, or compressed
 * on the way), plain otherwise. Gzip is sent as it is (`encodeBody: "manual"`), not encoded again.
 */
export function jsonAnswer<T>(
  acceptEncoding: string | undefined | null,
  body: { gzip: JsonGzip<T> } | { json: JsonText<T> },
  extraHeaders: Record<string, string> = {},
): JsonResponse<T> {
  const headers = { "Content-Type": "application/json", Vary: "Accept-Encoding", ...extraHeaders };
  if (acceptsGzip(acceptEncoding)) {
    const gzip =
      "gzip" in body ? body.gzip : new Blob([body.json]).stream().pipeThrough(new CompressionStream("gzip"));
    return new Response(gzip, {
      headers: { ...headers, "Content-Encoding": "gzip" },
      encodeBody: "manual",
    }) as JsonResponse<T>;
  }
  return new Response("gzip" in body ? gunzipStream(body.gzip) : body.json, { headers }) as JsonResponse<T>;
}
