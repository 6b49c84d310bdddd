import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeAlert, makeFleetSite, summaryOf } from "./dashboard-fixtures";
import { findToast, makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

function stubDownloads() {
  const createObjectURL = vi.fn((_blob: Blob) => "blob:export");
  const revokeObjectURL = vi.fn();
  vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL }));
  const clicked: string[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this.download);
  });
  return { createObjectURL, clicked, click };
}

afterEach(() => {
  vi.restoreAllMocks();
});

function renderAlerts(csvStatus = 200) {
  const profile = makeProfile({ role: "orgOwner" });
  storeSession(profile);
  const alerts = [makeAlert({ id: "alert-1", title: "Grid overvoltage", severity: "critical" })];
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/alerts": ({ url }) =>
      new URL(url, "http://localhost").searchParams.get("format") === "csv"
        ? csvStatus === 200
          ? {
              body: "id",
              headers: {
                "Content-Type": "text/csv",
                "Content-Disposition": 'attachment; filename="alerts.csv"',
              },
            }
          : {
              status: csvStatus,
              body: { error: "Too many requests", code: "rate_limited", details: { retryAfterSeconds: 30 } },
            }
        : { body: alerts },
    "GET /api/alerts/summary": () => ({ body: summaryOf(alerts) }),
    "GET /api/sites": { body: [makeFleetSite()] },
  });
  return { ...renderApp("/app/alerts"), ...api };
}

describe("Export buttons", () => {
  it("downloads the alerts shown, with the screen's filters, as CSV under the server's filename", async () => {
    const downloads = stubDownloads();
    const { user, calls } = renderAlerts();
    await screen.findByText("Grid overvoltage");
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads.clicked).toEqual(["alerts.csv"]));
    const exportCall = calls.find((call) => call.url.includes("format=csv"));
    expect(new URL(exportCall?.url ?? "", "http://localhost").searchParams.get("state")).toBe("open");
    expect(exportCall?.headers.get("Authorization")).toBe("Bearer token-abc");
    expect(downloads.createObjectURL).toHaveBeenCalledOnce();
  });

  it("shows a toast when the export fails, and downloads nothing", async () => {
    const downloads = stubDownloads();
    const { user } = renderAlerts(429);
    await screen.findByText("Grid overvoltage");
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await findToast("Export failed");
    await findToast("Too many attempts. Try again in 30 s.");
    expect(downloads.clicked).toEqual([]);
  });
});
