import { describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "../../worker/lib/security-headers";
import { baseUrl } from "./helpers";

/**
 * The app as `npm start` serves it: `/` and `/app/dashboard` are static assets answered without
 * the worker (their headers come from public/_headers), `/api/health` is the worker's.
 */
describe("security headers of the served app", () => {
  it.each(["/", "/app/dashboard", "/api/health"])("are on %s", async (path) => {
    const res = await fetch(`${baseUrl}${path}`);
    await res.arrayBuffer();
    expect(res.status, path).toBe(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(res.headers.get(name), `${path}: ${name}`).toBe(value);
    }
    // Served over http locally: HSTS belongs to https answers only.
    expect(res.headers.get("Strict-Transport-Security")).toBeNull();
  });

  it("serve index.html without inline scripts", async () => {
    const html = await (await fetch(`${baseUrl}/app/dashboard`)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\//);
      expect(body?.trim()).toBe("");
    }
  });
});
