/**
 * Entity tags for answers that are expensive to send and often unchanged (the dashboard metrics
 * of a large fleet): a client that polls names the tag it holds and gets 304 without a body.
 */

/** The opaque tags an If-None-Match header names (weak or strong; `*` is not used by these answers). */
export function requestedTags(ifNoneMatch: string | undefined | null): string[] {
  if (!ifNoneMatch) return [];
  return ifNoneMatch
    .split(",")
    .map((part) => /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(part)?.[1])
    .filter((tag): tag is string => tag !== undefined && tag !== "");
}

/** The headers that let a client revalidate: the tag, and no reuse without asking. */
export function tagHeaders(tag: string): Record<string, string> {
  return { ETag: `"${tag}"`, "Cache-Control": "private, no-cache" };
}
