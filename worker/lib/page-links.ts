/**
 * Paging headers for a list answered a page at a time (RFC 8288 links, as GitHub's API sends
 * them): where the first, previous, next and last pages are, and how many items there are in all.
 */
export function pageLinks(
  requestUrl: string,
  paging: { page: number; pageCount: number; total: number },
): Record<string, string> {
  const at = (page: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set("page", String(page));
    return `<${url.pathname}${url.search}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (paging.page > 1) links.push(`${at(Math.min(paging.page - 1, paging.pageCount))}; rel="prev"`);
  if (paging.page < paging.pageCount) links.push(`${at(paging.page + 1)}; rel="next"`);
  links.push(`${at(paging.pageCount)}; rel="last"`);
  return { Link: links.join(", "), "X-Total-Count": String(paging.total) };
}
