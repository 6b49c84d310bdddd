type Doc = ReturnType<typeof import("./document").buildOpenApiDocument>;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** The API reference as one self-contained HTML page: no scripts, no fonts, nothing fetched. */
export function referencePage(doc: Doc): string {
  const sections = Object.entries(doc.paths)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const parameters =
          (op.parameters as { name: string; in: string; required: boolean; schema: unknown }[]) ?? [];
        const body = (op.requestBody as { content: { "application/json": { schema: unknown } } } | undefined)
          ?.content["application/json"].schema;
        const params = parameters.length
          ? `<table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${parameters
              .map(
                (p) =>
                  `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? "yes" : "no"}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
              )
              .join("")}</table>`
          : "";
        const description = typeof op.description === "string" ? `<p>${escapeHtml(op.description)}</p>` : "";
        const bodyBlock = body
          ? `<h4>Request body (JSON)</h4><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>`
          : "";
        return `<section id="${escapeHtml(String(op.operationId))}"><h3><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${op.security && (op.security as unknown[]).length ? " 🔒" : ""}</h3>${description}${params}${bodyBlock}</section>`;
      }),
    );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}code,pre{font:13px ui-monospace,monospace}pre{background:#f3f4f6;padding:.75rem;overflow:auto}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #e5e7eb;padding:.25rem .5rem;text-align:left;vertical-align:top}section{border-top:1px solid #e5e7eb;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-weight:700}</style></head>
<body><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<h2>Live message types</h2><pre>${escapeHtml(JSON.stringify(doc.components.schemas.LiveMessage, null, 2))}</pre>
<h2>Endpoints</h2>${sections.join("\n")}</body></html>`;
}
