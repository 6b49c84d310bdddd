import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { launchBrowser } from "./browser";

/** The app as `npm start` serves it (started by global-setup on a free port). */
export const baseUrl = inject("baseUrl");
export const PASSWORD = "sunny-days-2026";
/** The sandbox Solis account (README): three simulated plants. */
export const SOLIS_SANDBOX = {
  keyId: sandboxAccounts.solis[0].keyId,
  keySecret: sandboxAccounts.solis[0].keySecret,
};

export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A JSON call to the running app; anything but 2xx fails the test with the answer's text. */
export async function api<T>(
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: {
      "Content-Type": "application/json",
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export interface Session {
  token: string;
  user: unknown;
}

interface PageOptions {
  /** Signed in: the session stored in localStorage as the app itself stores it (SPEC section 3). */
  session?: Session;
  width?: number;
  timeoutMs?: number;
}

/** Debian's chromium for one test file (launched before its tests, closed after); a fresh context per page. */
export function browserPages() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return async function newPage({
    session,
    width = 1366,
    timeoutMs = 20_000,
  }: PageOptions = {}): Promise<Page> {
    if (!browser) throw new Error("the browser starts in beforeAll");
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    if (session) {
      await context.addInitScript(
        ([token, user]) => {
          if (!localStorage.getItem("auth_token")) {
            localStorage.setItem("auth_token", token);
            localStorage.setItem("auth_user", user);
          }
        },
        [session.token, JSON.stringify(session.user)] as const,
      );
    }
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    return page;
  };
}
