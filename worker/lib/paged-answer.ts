import { requestedTags, tagHeaders } from "./entity-tags";
import { type JsonResponse, type JsonText, jsonAnswer, jsonText } from "./gzip";
import { pageLinks } from "./page-links";

/** A tag naming a body by its content: the same page answered twice has the same tag. */
export async function contentTag(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  let text = "";
  for (const byte of digest.subarray(0, 16)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * One page of a list as the metrics answer it: the items as a JSON array with `Link` (first,
 * prev, next, last) and `X-Total-Count`, tagged by content (a client naming the tag in
 * If-None-Match gets 304 without a body), gzipped for a client that takes it. The items may come
 * as JSON text already written (a store's answer), sent as they are.
 */
export async function pagedAnswer<Item>(
  request: { url: string; header: (name: string) => string | undefined },
  items: Item[] | JsonText<Item[]>,
  paging: { page: number; pageCount: number; total: number },
): Promise<JsonResponse<Item[]>> {
  const json = typeof items === "string" ? items : jsonText(items);
  const tag = await contentTag(json);
  const headers = { ...tagHeaders(tag), ...pageLinks(request.url, paging) };
  if (requestedTags(request.header("If-None-Match")).includes(tag)) {
    // Typed as the page: a client only gets 304 for a tag it holds, with that page.
    return new Response(null, { status: 304, headers }) as JsonResponse<Item[]>;
  }
  return jsonAnswer(request.header("Accept-Encoding"), { json }, headers);
}

/** Pages of `pageSize` over `total` items: at least one, an empty list's. */
export const pageCountOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
