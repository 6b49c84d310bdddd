import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { sandboxAccounts } from "../../sandbox/accounts";
import { launchBrowser } from "./browser";

/** The app as `npm start` serves it (started by global-setup on a free port). */
export const baseUrl = inject("baseUrl");
/** The sandbox beside it: the mail the app sends is caught at `${sandboxUrl}/mail`. */
export const sandboxUrl = inject("sandboxUrl");
export const PASSWORD = "sunny-days-2026";
/** The sandbox Solis account (README): three simulated plants. */
export const SOLIS_SANDBOX = {
  keyId: sandboxAccounts.solis[0].keyId,
  keySecret: sandboxAccounts.solis[0].keySecret,
};

export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

let signUps = Math.floor(Math.random() * 60_000);

type ApiInit = { method?: string; token?: string; body?: unknown };

/** JSON calls to the app at `appUrl`; anything but 2xx fails the test with the answer's text. */
export const apiAt =
  (appUrl: string) =>
  async <T>(path: string, init: ApiInit = {}): Promise<T> => {
    const res = await fetch(`${appUrl}${path}`, {
      method: init.method ?? "GET",
      headers: {
        "Content-Type": "application/json",
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        // Each sign-up comes from an address of its own, as different users' do: the app throttles
        // sign-ups per client address (CF-Connecting-IP, which Cloudflare sets), and the suite signs
        // up more owners than one address may in an hour.
        ...(path === "/api/auth/register"
          ? { "CF-Connecting-IP": `10.0.${signUps >> 8}.${signUps++ & 255}` }
          : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };

/** A JSON call to the app the test files share. */
export const api = apiAt(baseUrl);

export interface Session {
  token: string;
  user: unknown;
}

interface CaughtMail {
  subject: string;
  text: string;
}

/** The link to `path` in the newest mail the sandbox caught for the address, once it has arrived. */
export async function mailedLink(email: string, path: string): Promise<URL> {
  const pattern = new RegExp(`https?://\\S+${path}\\S*`);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${sandboxUrl}/mail/messages?to=${encodeURIComponent(email)}`);
    const mails = (await res.json()) as CaughtMail[];
    const link = mails.map((mail) => pattern.exec(mail.text)?.[0]).findLast((found) => found !== undefined);
    if (link) return new URL(link);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail with a ${path} link reached ${email}`);
}

/** Follows the verification link the sign-up mailed, as its owner would: the address is then verified. */
export async function verifyEmail(email: string): Promise<Session> {
  const link = await mailedLink(email, "/verify-email");
  return api<Session>("/api/auth/verify-email", {
    method: "POST",
    body: { token: link.searchParams.get("token") },
  });
}

interface PageOptions {
  /** Signed in: the session stored in localStorage as the app itself stores it (auth_token, auth_user). */
  session?: Session;
  width?: number;
  height?: number;
  timeoutMs?: number;
}

/** What a page logged as an error or threw, unless its test said to expect it; and its API calls. */
interface WatchedPage {
  context: BrowserContext;
  problems: string[];
  expected: RegExp[];
  /** API calls in flight, by when they left. */
  pending: Map<Request, number>;
  /** The last API calls answered: method, path, status and how long each took. */
  answered: string[];
}

/** Where a failed test's pages stood, for `npm test` to print at the end (scripts/test.mjs). */
const FAILED_PAGES_FILE = path.resolve(import.meta.dirname, "../../test-results/e2e-failed-pages.txt");

/** API calls a failed test reports, the last ones answered. */
const ANSWERED_KEPT = 20;
const watched = new Map<Page, WatchedPage>();

/**
 * For a test that provokes a failure on purpose: console errors matching `pattern` on this page
 * (such as the browser's own line for an answer with an error status) do not fail it.
 */
export function expectConsoleError(page: Page, pattern: RegExp): void {
  watched.get(page)?.expected.push(pattern);
}

function watch(page: Page, context: BrowserContext): void {
  const entry: WatchedPage = { context, problems: [], expected: [], pending: new Map(), answered: [] };
  watched.set(page, entry);
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith("/api/");
  page.on("request", (request) => {
    if (isApi(request)) entry.pending.set(request, Date.now());
  });
  const settle = (request: Request, outcome: string) => {
    const startedMs = entry.pending.get(request);
    if (startedMs === undefined) return;
    entry.pending.delete(request);
    const path = new URL(request.url()).pathname;
    entry.answered.push(`${request.method()} ${path} ${outcome} in ${Date.now() - startedMs} ms`);
    if (entry.answered.length > ANSWERED_KEPT) entry.answered.shift();
  };
  page.on("requestfinished", (request) => {
    // The answer's status is read asynchronously: the page may be closed by then (after its test).
    void request.response().then(
      (response) => settle(request, String(response?.status() ?? "?")),
      () => settle(request, "answered"),
    );
  });
  page.on("requestfailed", (request) => settle(request, `failed (${request.failure()?.errorText})`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const location = message.location().url;
    const text = `console error: ${message.text()}${location ? ` (${location})` : ""}`;
    if (!entry.expected.some((pattern) => pattern.test(text))) entry.problems.push(text);
  });
  page.on("pageerror", (error) => {
    entry.problems.push(`page error: ${error.stack ?? error.message}`);
  });
}

/**
 * Debian's chromium for one test file (launched before its tests, closed after); a fresh context per
 * page. Ordinary use logs no error: a test fails when any of its pages logged a console error or
 * threw, unless the test declared it with `expectConsoleError`.
 */
export function browserPages() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async ({ task }) => {
    const problems: string[] = [];
    // A failed test says where each page stood and what its API calls were doing, so a failure in
    // a run nobody watched (CI) shows whether the app answered slowly, wrongly or not at all.
    if (task.result?.state === "fail") {
      for (const [page, entry] of watched) {
        const now = Date.now();
        const pending = [...entry.pending].map(
          ([request, startedMs]) =>
            `${request.method()} ${new URL(request.url()).pathname} for ${now - startedMs} ms`,
        );
        const report = `${task.fullName}: page at ${page.url()} when the test failed\n  API calls in flight: ${pending.join("; ") || "none"}\n  last answered:\n    ${entry.answered.join("\n    ")}\n`;
        console.log(report);
        // Also kept for `npm test`, which prints it just before its last line (a CI log's tail).
        mkdirSync(path.dirname(FAILED_PAGES_FILE), { recursive: true });
        appendFileSync(FAILED_PAGES_FILE, report);
      }
    }
    for (const [page, entry] of watched) {
      problems.push(...entry.problems.map((problem) => `${page.url()}: ${problem}`));
      await entry.context.close();
    }
    watched.clear();
    if (problems.length > 0) {
      throw new Error(`The browser reported errors in ordinary use:\n${problems.join("\n")}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
  });
  return async function newPage({
    session,
    width = 1366,
    height = 900,
    timeoutMs = 20_000,
  }: PageOptions = {}): Promise<Page> {
    if (!browser) throw new Error("the browser starts in beforeAll");
    const context = await browser.newContext({ viewport: { width, height } });
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
    watch(page, context);
    page.setDefaultTimeout(timeoutMs);
    // A navigation is done once the document is parsed: every test then waits for the content it
    // asserts. Waiting for "load" as well (every script chunk and image fetched) only added a
    // second wait for the same page, and timed out on a CI machine busy with a 2,000-plant sync.
    const goto = page.goto.bind(page);
    page.goto = (url, options) => goto(url, { waitUntil: "domcontentloaded", ...options });
    return page;
  };
}

/**
 * Turns off making a site for each synced plant, for tests about grouping plants into sites by
 * hand (the wizard, attaching a system to a site they create).
 */
export async function withoutAutoSites(token: string): Promise<void> {
  await api("/api/organization/settings", { method: "PATCH", token, body: { autoCreateSites: false } });
}
