import type { Language } from "../../schema/domain";

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

export interface MailTable {
  caption: string;
  header: string[];
  rows: string[][];
}

const cell = "padding:4px 10px;border-bottom:1px solid #e5e7eb;text-align:left";

function tableHtml(table: MailTable): string {
  const head = table.header.map((h) => `<th style="${cell}">${escapeHtml(h)}</th>`).join("");
  const rows = table.rows
    .map((row) => `<tr>${row.map((c) => `<td style="${cell}">${escapeHtml(c)}</td>`).join("")}</tr>`)
    .join("");
  return `<h3>${escapeHtml(table.caption)}</h3><table style="border-collapse:collapse;font-size:14px"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

const tableText = (table: MailTable) =>
  ["", table.caption, table.header.join(" | "), ...table.rows.map((row) => row.join(" | "))].join("\n");

export interface MailBody {
  /** Paragraphs (plain text; escaped for HTML). */
  paragraphs: string[];
  /** Rows shown as a list. */
  items?: string[];
  /** Tables after the list: a caption, a header row and rows of cells (plain text). */
  tables?: MailTable[];
  action?: { label: string; url: string };
  /** Footer with the unsubscribe link of this kind of mail. */
  unsubscribe?: { label: string; url: string };
}

/** One plain layout for every mail: the same content as HTML and as text. */
export function renderMail(
  language: Language,
  title: string,
  body: MailBody,
): { html: string; text: string } {
  const html = [
    `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#111827">`,
    `<h2>${escapeHtml(title)}</h2>`,
    ...body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    body.items && body.items.length > 0
      ? `<ul>${body.items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`
      : "",
    ...(body.tables ?? []).map(tableHtml),
    body.action ? `<p><a href="${escapeHtml(body.action.url)}">${escapeHtml(body.action.label)}</a></p>` : "",
    body.unsubscribe
      ? `<hr><p style="font-size:12px;color:#6b7280"><a href="${escapeHtml(body.unsubscribe.url)}">${escapeHtml(body.unsubscribe.label)}</a></p>`
      : "",
    "</body></html>",
  ].join("");
  const text = [
    title,
    "",
    ...body.paragraphs,
    ...(body.items ?? []).map((i) => `- ${i}`),
    ...(body.tables ?? []).map(tableText),
    body.action ? `\n${body.action.label}: ${body.action.url}` : "",
    body.unsubscribe ? `\n${body.unsubscribe.label}: ${body.unsubscribe.url}` : "",
  ].join("\n");
  return { html, text };
}
