import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ApiKey } from "../../schema/api/api-keys";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

const existing: ApiKey = {
  id: "key-1",
  name: "Billing export",
  scope: "read",
  permissions: [],
  prefix: "sfk_AbCdEf",
  createdBy: "user-1",
  createdAt: "2026-06-01T10:00:00.000Z",
  lastUsedAt: null,
  expiresAt: "2099-06-01T10:00:00.000Z",
};

const expired: ApiKey = {
  ...existing,
  id: "key-0",
  name: "Old import",
  scope: "write",
  permissions: ["sites"],
  prefix: "sfk_OlDoLd",
  expiresAt: "2026-01-01T10:00:00.000Z",
};

async function openApiKeys() {
  const profile = makeProfile({ role: "orgOwner" });
  storeSession(profile);
  let keys: ApiKey[] = [existing, expired];
  const api = mockApi({
    ...signedInApi(profile),
    "GET /api/users": { body: [] },
    "GET /api/invites": { body: [] },
    "GET /api/auth/sessions": { body: [] },
    "GET /api/timezones": { body: [] },
    "GET /api/api-keys": () => ({ body: keys }),
    "POST /api/api-keys": ({ body }) => {
      const input = body as { name: string; scope: "read" | "write"; expiresInDays: number };
      const created: ApiKey = {
        ...existing,
        id: "key-2",
        name: input.name,
        scope: input.scope,
        permissions: input.scope === "write" ? ["credentials", "sites", "portfolios"] : [],
        prefix: "sfk_ZyXwVu",
        expiresAt: new Date(Date.now() + input.expiresInDays * 86_400_000).toISOString(),
      };
      keys = [created, ...keys];
      return { status: 201, body: { ...created, key: "sfk_ZyXwVu-the-whole-secret" } };
    },
    "DELETE /api/api-keys/key-1": () => {
      keys = keys.filter((key) => key.id !== "key-1");
      return { status: 204 };
    },
  });
  const rendered = renderApp("/app/dashboard");
  await screen.findByText("No sites yet");
  await rendered.user.click(screen.getByRole("button", { name: "Settings" }));
  const dialog = await screen.findByRole("dialog");
  await rendered.user.click(within(dialog).getByRole("tab", { name: "API Keys" }));
  return { ...rendered, ...api, dialog };
}

describe("API keys settings tab", () => {
  it("creates a key and shows it once, then revokes another", async () => {
    const { dialog, user, calls } = await openApiKeys();
    await within(dialog).findByText("Billing export");
    await user.type(within(dialog).getByLabelText("Key name"), "Nightly sync");
    await user.selectOptions(within(dialog).getByLabelText("Scope"), "write");
    // A year unless another lifetime is chosen.
    expect(within(dialog).getByLabelText("Expires after")).toHaveValue("365");
    await user.selectOptions(within(dialog).getByLabelText("Expires after"), "90");
    await user.click(within(dialog).getByRole("button", { name: "Create key" }));
    expect(await within(dialog).findByText("sfk_ZyXwVu-the-whole-secret")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Nightly sync",
      scope: "write",
      expiresInDays: 90,
    });
    await within(dialog).findByText("Nightly sync");
    // The list never holds the secret, only the prefix.
    const list = within(dialog).getByRole("list", { name: "API Keys" });
    expect(list).not.toHaveTextContent("the-whole-secret");
    // Each key shows its areas and when it expires; a key past its expiry says so.
    const created = within(list).getByText("Nightly sync").closest("li");
    expect(created).toHaveTextContent(/Read and write \(provider credentials, sites, portfolios\)/);
    expect(created).toHaveTextContent(/expires /);
    const old = within(list).getByText("Old import").closest("li");
    expect(old).toHaveTextContent(/Read and write \(sites\)/);
    expect(old).toHaveTextContent(/expired /);

    await user.click(within(dialog).getByRole("button", { name: "Revoke Billing export" }));
    await waitFor(() => expect(within(dialog).queryByText("Billing export")).not.toBeInTheDocument());
    expect(calls.some((call) => call.method === "DELETE" && call.path === "/api/api-keys/key-1")).toBe(true);
  });
});
