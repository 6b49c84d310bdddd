import {
  type CallOptions,
  type OptionsArgument,
  type PagedPath,
  type PageItem,
  respond,
  routeUrl,
} from "../api";

/** One page of a paged list: its items, and how many over all pages (X-Total-Count, else the page's). */
export async function getPage<P extends PagedPath>(
  path: P,
  ...[options]: OptionsArgument<CallOptions<"GET", P>>
): Promise<{ items: PageItem<P>[]; total: number }> {
  const response = await respond("GET", routeUrl(path, options?.param, options?.query), options);
  const text = await response.text();
  const items = (text ? JSON.parse(text) : []) as PageItem<P>[];
  const total = response.headers.get("X-Total-Count");
  return { items, total: total === null ? items.length : Number(total) };
}
