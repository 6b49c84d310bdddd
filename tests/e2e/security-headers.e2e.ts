import { describe, expect, it } from "vitest";
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "../../worker/lib/security-headers";
import { api, baseUrl, browserPages, PASSWORD, type Session, uniqueEmail } from "./helpers";

const newPage = browserPages();

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
    // Static answers carry HSTS from public/_headers (a browser ignores it over http); the
    // worker sends it on https answers only, and this server speaks http.
    expect(res.headers.get("Strict-Transport-Security")).toBe(
      path.startsWith("/api/") ? null : STRICT_TRANSPORT_SECURITY,
    );
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

  it("let the app run in the browser without one Content-Security-Policy violation", async () => {
    const session = await api<Session>("/api/auth/register", {
      method: "POST",
      body: {
        email: uniqueEmail("csp"),
        password: PASSWORD,
        fullName: "Cass Policy",
        companyName: "CSP Solar",
      },
    });
    const page = await newPage({ session });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(
          `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        );
      });
    });
    await page.goto(`${baseUrl}/app/dashboard`);
    await page.getByText("No sites yet").waitFor();
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("dialog").getByText("Where you are signed in").waitFor();
    await page.goto(`${baseUrl}/demo`);
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });
});
