import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeWebSocket } from "./fake-websocket";
import { makeProfile, mockApi, renderApp, signedInApi, storeSession } from "./helpers";

describe("live indicator", () => {
  it("opens one socket with the token, shows Live when open and Reconnecting when it drops", async () => {
    const profile = makeProfile();
    storeSession(profile, "tok-live");
    mockApi({
      ...signedInApi(profile),
      "POST /api/auth/logout": { body: { message: "ok" } },
      "GET /api/sites": { body: [] },
      "GET /api/available-systems": { body: [] },
    });
    const { user, router } = renderApp("/app/dashboard");
    const banner = await screen.findByRole("banner");
    expect(within(banner).getByText("Connecting")).toBeInTheDocument();

    expect(FakeWebSocket.instances).toHaveLength(1);
    const socket = FakeWebSocket.instances[0];
    expect(socket?.url).toBe(`ws://${window.location.host}/ws`);
    expect(socket?.protocols).toEqual(["sunfleet", "tok-live"]);

    act(() => socket?.serverOpens());
    expect(within(banner).getByText("Live")).toBeInTheDocument();

    await user.click(screen.getByRole("link", { name: "Weather" }));
    await screen.findByText("No Weather Data");
    expect(FakeWebSocket.instances).toHaveLength(1);

    act(() => socket?.serverCloses());
    expect(within(banner).getByText("Reconnecting")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Log out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("closes the socket on logout", async () => {
    const profile = makeProfile();
    storeSession(profile);
    mockApi({ ...signedInApi(profile), "POST /api/auth/logout": { body: { message: "ok" } } });
    const { user } = renderApp("/app/dashboard");
    await screen.findByRole("banner");
    const socket = FakeWebSocket.instances[0];
    act(() => socket?.serverOpens());
    await user.click(screen.getByRole("button", { name: "Log out" }));
    expect(socket?.closedWith).toBe(1000);
  });
});
