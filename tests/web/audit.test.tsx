import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../schema/api/audit";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const entry = (index: number): AuditEntry => ({
  id: `log-${index}`,
  orgId: "org-1",
  actorId: "u-owner",
  actorEmail: "olivia@sunco.example",
  action: index % 2 === 0 ? "auth.login" : "users.invite",
  targetType: index % 2 === 0 ? null : "invite",
  targetId: index % 2 === 0 ? null : `inv-${index}`,
  details: null,
  ip: "203.0.113.7",
  createdAt: "2026-11-20T09:30:00.000Z",
});

describe("audit logs", () => {
  it("shows entries with time, actor, action, target and IP, and pages through them", async () => {
    const owner = makeProfile();
    storeSession(owner);
    const { calls } = mockApi({
      ...signedInApi(owner),
      "GET /api/admin/logs": ({ url }) => {
        const page = Number(new URL(url, "http://localhost").searchParams.get("page"));
        return { body: { logs: [entry(page * 2), entry(page * 2 + 1)], total: 60, page, pageSize: 25 } };
      },
    });
    const { user } = renderApp("/app/admin/logs");

    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Time", "Actor", "Action", "Target", "IP Address"]);
    expect(within(table).getByText("users.invite")).toBeInTheDocument();
    expect(within(table).getByText("invite:inv-3")).toBeInTheDocument();
    expect(within(table).getAllByText("203.0.113.7")).toHaveLength(2);
    expect(screen.getByText("Page 1 of 3")).toBeInTheDocument();
    expect(screen.getByText("Showing 1–25 of 60")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Page 2 of 3")).toBeInTheDocument();
    const lastUrl = new URL(
      calls.filter((call) => call.path === "/api/admin/logs").at(-1)?.url ?? "",
      "http://x",
    );
    expect(lastUrl.searchParams.get("page")).toBe("2");
    expect(lastUrl.searchParams.get("pageSize")).toBe("25");
  });

  it("sends the filters and goes back to page 1 when they are applied", async () => {
    const owner = makeProfile();
    storeSession(owner);
    const { calls } = mockApi({
      ...signedInApi(owner),
      "GET /api/admin/logs": { body: { logs: [], total: 0, page: 1, pageSize: 25 } },
    });
    const { user } = renderApp("/app/admin/logs");
    expect(await screen.findByText("No audit log entries")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Action"), "auth.login");
    await user.type(screen.getByLabelText("Actor email"), "olivia@sunco.example");
    await user.type(screen.getByLabelText("From"), "2026-11-01");
    await user.click(screen.getByRole("button", { name: "Apply Filters" }));

    await waitFor(() => {
      const params = new URL(
        calls.filter((call) => call.path === "/api/admin/logs").at(-1)?.url ?? "",
        "http://x",
      ).searchParams;
      expect(params.get("action")).toBe("auth.login");
      expect(params.get("actorEmail")).toBe("olivia@sunco.example");
      expect(new Date(params.get("from") ?? "").getDate()).toBe(1);
      expect(params.get("page")).toBe("1");
      expect(params.has("to")).toBe(false);
    });
  });

  it("is restricted for role user", async () => {
    const plain = makeProfile({ role: "user" });
    storeSession(plain);
    const { calls } = mockApi(signedInApi(plain));
    renderApp("/app/admin/logs");
    expect(await screen.findByText("Access restricted")).toBeInTheDocument();
    expect(calls.some((call) => call.path === "/api/admin/logs")).toBe(false);
  });
});
