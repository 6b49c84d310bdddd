import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../schema/api/api-keys";
import type { AuthResponse } from "../../../schema/api/auth";
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "../../../worker/lib/security-headers";
import { BASE, call, expectStatus, login, PASSWORD, registerOwner, uniqueEmail } from "../helpers";

/**
 * The worker's own answers, including the SPA it serves through the assets binding for paths it
 * routes. Static answers the platform serves without the worker carry the same headers from
 * public/_headers: tests/e2e/security-headers.e2e.ts reads them from the app as `npm start` serves it.
 */
const PATHS = ["/", "/app/dashboard", "/api/health"];

function expectSecurityHeaders(res: Response, label: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(res.headers.get(name), `${label}: ${name}`).toBe(value);
  }
}

describe("security headers", () => {
  it.each(PATHS)("are on every answer: %s", async (path) => {
    const res = await SELF.fetch(`${BASE}${path}`);
    expect(res.status, path).toBe(200);
    expectSecurityHeaders(res, path);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-eval");
    await res.arrayBuffer();
  });

  it("serve the SPA without inline scripts, so the CSP needs none", async () => {
    const res = await SELF.fetch(`${BASE}/app/dashboard`);
    const html = await res.text();
    expect(html).toContain('<div id="root">');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\//);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it("are on error answers and authenticated API answers too", async () => {
    const owner = await registerOwner();
    const profile = await call("/api/user/profile", { token: owner.token });
    await expectStatus(profile.clone(), 200);
    expectSecurityHeaders(profile, "profile");
    const missing = await call("/api/no-such-route");
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, "404");
    const unauthenticated = await call("/api/user/profile");
    expect(unauthenticated.status).toBe(401);
    expectSecurityHeaders(unauthenticated, "401");
  });

  it("send HSTS on the worker's https answers only", async () => {
    const plain = await SELF.fetch(`${BASE}/api/health`);
    expect(plain.headers.get("Strict-Transport-Security")).toBeNull();
    const secure = await SELF.fetch("https://sunfleet.test/api/health");
    expect(secure.headers.get("Strict-Transport-Security")).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it("send HSTS on the SPA and its assets, from public/_headers", async () => {
    const page = await SELF.fetch(`${BASE}/app/dashboard`);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await SELF.fetch(`${BASE}${script}`);
    await asset.arrayBuffer();
    expect(asset.status).toBe(200);
    // Over plain http the worker adds none (see above): these come from the static headers file.
    for (const res of [page, asset, await SELF.fetch(`${BASE}/`)]) {
      expect(res.headers.get("Strict-Transport-Security"), res.url).toBe(STRICT_TRANSPORT_SECURITY);
      if (!res.bodyUsed) await res.arrayBuffer();
    }
  });
});

describe("API caching", () => {
  const cacheControl = async (res: Response) => {
    await res.arrayBuffer();
    return res.headers.get("Cache-Control");
  };

  it("keeps no API answer by default: tokens, new keys, profiles, exports and errors are no-store", async () => {
    const registered = await call("/api/auth/register", {
      method: "POST",
      body: {
        email: uniqueEmail("cache"),
        password: PASSWORD,
        fullName: "Cass Cache",
        companyName: "No Store",
      },
    });
    await expectStatus<AuthResponse>(registered.clone(), 201);
    const owner = await registerOwner("No Store Solar");
    const token = owner.token;
    const key = await call("/api/api-keys", { method: "POST", token, body: { name: "k", scope: "read" } });
    await expectStatus<CreatedApiKey>(key.clone(), 201);
    const answers: Record<string, Response> = {
      register: registered,
      login: await login(owner.email),
      "new key": key,
      profile: await call("/api/user/profile", { token }),
      "alerts export": await call("/api/alerts?format=csv", { token }),
      "audit export": await call("/api/admin/logs?format=csv", { token }),
      "401": await call("/api/user/profile"),
      "404": await call("/api/no-such-route"),
    };
    for (const [label, res] of Object.entries(answers)) {
      expect(await cacheControl(res), label).toBe("no-store");
    }
  });

  it("keeps the caching routes choose: the metrics page revalidates by its tag, time zones are kept an hour", async () => {
    const owner = await registerOwner("Tagged Solar");
    const first = await call("/api/dashboard/metrics", { token: owner.token });
    expect(first.status).toBe(200);
    expect(await cacheControl(first)).toBe("private, no-cache");
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^"/);
    const again = await call("/api/dashboard/metrics", {
      token: owner.token,
      headers: { "If-None-Match": tag ?? "" },
    });
    expect(again.status).toBe(304);
    expect(await cacheControl(again)).toBe("private, no-cache");
    expect(await cacheControl(await call("/api/timezones", { token: owner.token }))).toBe(
      "private, max-age=3600",
    );
  });
});

describe("CORS", () => {
  it("is closed without CORS_ORIGINS: no Access-Control-Allow-Origin for another site", async () => {
    expect(env.CORS_ORIGINS).toBeUndefined();
    const res = await call("/api/health", { headers: { Origin: "https://evil.example" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const preflight = await call("/api/auth/login", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
