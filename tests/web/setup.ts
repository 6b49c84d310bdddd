import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, vi } from "vitest";
import { i18n, initI18n } from "../../web/lib/i18n";
import { disconnectLive } from "../../web/lib/live";
import { reloadPage } from "../../web/lib/reload-page";
import { restoreSession } from "../../web/lib/session";
import { FakeWebSocket } from "./fake-websocket";

// jsdom cannot reload a page: every test observes the reload instead (the strings loader and the
// Log Out action reload).
vi.mock("../../web/lib/reload-page", () => ({ reloadPage: vi.fn() }));

// English is a lazy chunk like every language: tests start once it is loaded.
await initI18n("en");
// Failures load the error contracts and their messages on demand; loaded here once, so a test's first
// failed request does not wait for their first transform (the messages' strings are only imported:
// each test still loads them into i18n with its first failure, as the client does).
await Promise.all([
  import("../../schema/api/errors"),
  import("../../web/lib/error-messages"),
  import("../../web/lib/i18n/api-errors/en"),
  import("../../web/lib/i18n/api-errors/es"),
  import("../../web/lib/i18n/api-errors/fr"),
]);
// Whole-app renders (router, lazy routes, Tremor) take seconds when a two-core machine is also
// running the worker suite; waits and tests get room for that rather than failing at random.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

// jsdom lacks these browser APIs that Headless UI, sonner and the live channel use.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
vi.stubGlobal("ResizeObserver", NoopResizeObserver);
vi.stubGlobal("WebSocket", FakeWebSocket);
if (!window.matchMedia) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}
window.scrollTo = () => undefined;

afterEach(async () => {
  cleanup();
  // sonner keeps its toasts in a module-level store and replays the active ones to the next Toaster
  // that mounts: without this, a test's toast appears again in the next test's app.
  (await import("sonner")).toast.dismiss();
  vi.mocked(reloadPage).mockClear();
  disconnectLive();
  FakeWebSocket.instances.length = 0;
  localStorage.clear();
  restoreSession();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.stubGlobal("ResizeObserver", NoopResizeObserver);
  vi.stubGlobal("WebSocket", FakeWebSocket);
  await i18n.changeLanguage("en");
});

// Tremor leaves timers that unmounting does not clear: its Button ends its loading transition on a
// 50 ms timer (react-transition-state), and its Button and Switch open their tooltip 300 ms after a
// hover or focus (useTooltip(300)), which every click gives them. One left by a file's last test
// would fire after the jsdom window is gone (`cancelAnimationFrame is not defined`, `window is not
// defined`). The file waits out the longest before its environment closes.
const TRANSITION_TIMER_MS = 50;
const TOOLTIP_DELAY_MS = 300;
afterAll(
  () => new Promise((resolve) => setTimeout(resolve, Math.max(TRANSITION_TIMER_MS, TOOLTIP_DELAY_MS) + 100)),
);
