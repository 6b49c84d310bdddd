import { act, screen, waitFor, within } from "@testing-library/react";
import { toast } from "sonner";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { MeteronlineImportResult } from "../../schema/api/meteronline";
import { defaultPreferences, type Preferences } from "../../schema/api/preferences";
import type { ConfiguredCredential, CredentialField, Provider } from "../../schema/api/providers";
import type { Role } from "../../schema/roles";
import { formatDateTime } from "../../web/lib/format";
import type { SyncRun } from "../../web/lib/queries/providers";
import { reloadPage } from "../../web/lib/reload-page";
import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from "../../web/lib/session";
import { FakeWebSocket } from "./fake-websocket";
import {
  findToast,
  makeProfile,
  mockApi,
  renderApp,
  signedInApi,
  storeSession,
  testQueryClient,
} from "./helpers";

// sonner replays toasts still active in its global store into the next test's Toaster.
afterEach(() => {
  toast.dismiss();
});

// sonner captures the pointer on a toast press; jsdom has no pointer capture.
const hadPointerCapture = "setPointerCapture" in HTMLElement.prototype;
beforeAll(() => {
  if (!hadPointerCapture) HTMLElement.prototype.setPointerCapture = () => undefined;
});
afterAll(() => {
  if (!hadPointerCapture) Reflect.deleteProperty(HTMLElement.prototype, "setPointerCapture");
});

const providers: Provider[] = [
  {
    id: "meteronline",
    name: "meteronline",
    displayName: "Meteronline",
    description: "Import CSV exports from the Meteronline portal.",
    ingestion: "csv-import",
  },
  {
    id: "solis",
    name: "solis",
    displayName: "SolisCloud",
    description: "SolisCloud monitoring API.",
    ingestion: "api",
  },
  {
    id: "solax",
    name: "solax",
    displayName: "SolaX Cloud",
    description: "SolaX Cloud API.",
    ingestion: "api",
  },
];

const solisFields: CredentialField[] = [
  {
    field: "keyId",
    name: "keyId",
    label: "API Key ID",
    type: "text",
    placeholder: "1300386381676644416",
    required: true,
    description: "The KeyId shown on SolisCloud's API management page.",
  },
  {
    field: "keySecret",
    name: "keySecret",
    label: "API Key Secret",
    type: "password",
    placeholder: "KeySecret",
    required: true,
    description: "The KeySecret shown next to the KeyId.",
  },
  {
    field: "apiUrl",
    name: "apiUrl",
    label: "API URL",
    type: "url",
    placeholder: "https://www.soliscloud.com:13333",
    required: false,
    description: "Leave empty for the default.",
  },
];

const solaxFields: CredentialField[] = [
  {
    field: "apiType",
    name: "apiType",
    label: "API",
    type: "select",
    placeholder: "",
    defaultValue: "token",
    required: true,
    description: "Token API or Developer OpenAPI.",
    options: [
      { value: "token", label: "SolaX Cloud token API" },
      { value: "openapi", label: "Developer OpenAPI" },
    ],
  },
  {
    field: "wifiSns",
    name: "wifiSns",
    label: "Dongle registration numbers",
    type: "textarea",
    placeholder: "SVJWACXAK2, SVXXXXXXXX",
    required: false,
    description: "Separated by commas.",
  },
];

const meteronlineFields: CredentialField[] = [
  {
    field: "portalAccount",
    name: "portalAccount",
    label: "Portal account",
    type: "text",
    placeholder: "name@company.com",
    required: false,
    description: "For your reference.",
  },
];

const timezones = [
  { value: "UTC", label: "UTC", offset: "UTC+00:00", region: "UTC" },
  { value: "Europe/Amsterdam", label: "Amsterdam", offset: "UTC+01:00", region: "Europe" },
  { value: "America/New_York", label: "New York", offset: "UTC-05:00", region: "America" },
];

function connection(overrides: Partial<ConfiguredCredential> = {}): ConfiguredCredential {
  return {
    provider: "solis",
    status: "active",
    updatedAt: "2026-05-01T09:00:00.000Z",
    lastSyncAt: "2026-05-01T09:00:05.000Z",
    lastSyncStatus: "success",
    lastError: null,
    newestDataAt: "2026-05-01T08:55:00.000Z",
    nextSyncAt: "2026-05-01T09:05:05.000Z",
    routineSyncs: 1_234,
    systemsCount: 3,
    ...overrides,
  };
}

type Handlers = Parameters<typeof mockApi>[0];

interface OpenOptions {
  role?: Role;
  credentials?: ConfiguredCredential[];
  preferences?: Preferences;
  extra?: Handlers;
}

/** Signs in, opens Settings on the Provider Credentials tab and returns the dialog. */
async function openProviderCredentials({
  role = "orgOwner",
  credentials = [],
  preferences = defaultPreferences,
  extra = {},
}: OpenOptions = {}) {
  const profile = makeProfile({ role });
  storeSession(profile);
  const api = mockApi({
    ...signedInApi(profile, preferences),
    "GET /api/providers": { body: providers },
    "GET /api/providers/solis/schema": { body: { provider: "solis", fields: solisFields } },
    "GET /api/providers/solax/schema": { body: { provider: "solax", fields: solaxFields } },
    "GET /api/providers/meteronline/schema": { body: { provider: "meteronline", fields: meteronlineFields } },
    "GET /api/credentials": { body: credentials },
    "GET /api/timezones": { body: timezones },
    ...extra,
  });
  const queryClient = testQueryClient();
  const invalidate = vi.spyOn(queryClient, "invalidateQueries");
  const rendered = renderApp("/app/dashboard", queryClient);
  await screen.findByText("No sites yet");
  await rendered.user.click(screen.getByRole("button", { name: "Settings" }));
  const dialog = await screen.findByRole("dialog");
  await rendered.user.click(within(dialog).getByRole("tab", { name: "Provider Credentials" }));
  return { ...rendered, ...api, dialog, profile, invalidate };
}

/** The query keys invalidateQueries was called with, in call order. */
function invalidatedKeys(invalidate: { mock: { calls: unknown[][] } }): unknown[] {
  return invalidate.mock.calls.map((args) => (args[0] as { queryKey?: unknown } | undefined)?.queryKey);
}

async function chooseProvider(
  dialog: HTMLElement,
  user: Awaited<ReturnType<typeof openProviderCredentials>>["user"],
  name: string,
) {
  const picker = await within(dialog).findByRole("combobox", { name: "Provider" });
  await waitFor(() => expect(picker).toBeEnabled());
  await user.selectOptions(picker, name);
  return within(dialog).findByRole("form", { name: /credentials/ });
}

async function fillSolis(
  form: HTMLElement,
  user: Awaited<ReturnType<typeof openProviderCredentials>>["user"],
) {
  await user.type(within(form).getByLabelText(/API Key ID/), "1300386381676644416");
  await user.type(within(form).getByLabelText(/API Key Secret/), "sandbox-solis-key-secret");
}

describe("provider credential form", () => {
  it("builds the form from the provider's schema, with secrets in password inputs", async () => {
    const { dialog, user } = await openProviderCredentials();
    const form = await chooseProvider(dialog, user, "solis");

    const keyId = within(form).getByLabelText(/API Key ID/);
    expect(keyId).toHaveAttribute("type", "text");
    expect(keyId).toHaveAttribute("placeholder", "1300386381676644416");
    expect(keyId).toHaveAccessibleDescription("The KeyId shown on SolisCloud's API management page.");
    expect(within(form).getByLabelText(/API Key Secret/)).toHaveAttribute("type", "password");
    expect(within(form).getByLabelText(/API URL/)).toHaveAttribute("type", "url");
    // Required fields carry a marker; the optional one does not.
    expect(within(form).getByText("API Key ID").closest("label")).toHaveTextContent("API Key ID*");
    expect(within(form).getByText("API URL").closest("label")).toHaveTextContent(/^API URL$/);
    expect(within(form).getByRole("button", { name: "Test Connection" })).toBeInTheDocument();
    expect(within(form).getByRole("button", { name: "Save Credentials" })).toBeInTheDocument();
  });

  it("renders select fields with their default and textarea fields as text areas", async () => {
    const { dialog, user } = await openProviderCredentials();
    const form = await chooseProvider(dialog, user, "solax");
    const apiType = within(form).getByLabelText(/^API/, { selector: "select" });
    expect(apiType).toHaveValue("token");
    expect(
      within(apiType)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["SolaX Cloud token API", "Developer OpenAPI"]);
    expect(within(form).getByLabelText(/Dongle registration numbers/).tagName).toBe("TEXTAREA");
  });

  it("refuses to send while required fields are empty and names them", async () => {
    const { dialog, user, calls } = await openProviderCredentials();
    const form = await chooseProvider(dialog, user, "solis");
    await user.type(within(form).getByLabelText(/API Key ID/), "   ");
    await user.click(within(form).getByRole("button", { name: "Save Credentials" }));

    expect(await findToast("Missing required fields")).toBeInTheDocument();
    expect(screen.getByText("Please fill in: API Key ID, API Key Secret")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Test Connection" }));
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);
  });

  it("shows the same toast when the server finds required fields missing", async () => {
    const { dialog, user } = await openProviderCredentials({
      extra: {
        "POST /api/credentials": {
          status: 400,
          body: {
            error: "Missing required fields",
            code: "missing_fields",
            details: { missing: ["API Key Secret"], message: "Please fill in: API Key Secret" },
          },
        },
      },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Save Credentials" }));
    expect(await findToast("Missing required fields")).toBeInTheDocument();
    expect(screen.getByText("Please fill in: API Key Secret")).toBeInTheDocument();
  });

  it("tests the connection and reports the sites found", async () => {
    const { dialog, user, calls } = await openProviderCredentials({
      extra: {
        "POST /api/credentials/solis/test": {
          body: { sitesFound: 3, message: "SolisCloud accepted the credentials." },
        },
      },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Test Connection" }));

    expect(await findToast("Connection successful")).toBeInTheDocument();
    expect(screen.getByText("Found 3 sites. SolisCloud accepted the credentials.")).toBeInTheDocument();
    // The blank optional API URL is left out.
    expect(calls.find((call) => call.path === "/api/credentials/solis/test")?.body).toEqual({
      credentials: { keyId: "1300386381676644416", keySecret: "sandbox-solis-key-secret" },
    });
  });

  it("says Connection failed with the vendor's refusal", async () => {
    const { dialog, user } = await openProviderCredentials({
      extra: {
        "POST /api/credentials/solis/test": {
          status: 400,
          body: {
            error: "SolisCloud: the KeyId or KeySecret is wrong",
            code: "provider_failure",
            details: { provider: "solis", kind: "auth" },
          },
        },
      },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Test Connection" }));
    expect(await findToast("Connection failed")).toBeInTheDocument();
    // The code in the user's language, not the server's English text.
    expect(screen.getByText("Solis refused the credentials. Check them and save again.")).toBeInTheDocument();
    expect(screen.queryByText("SolisCloud: the KeyId or KeySecret is wrong")).toBeNull();
  });

  it("says Connection test failed when the answer carries no error", async () => {
    const { dialog, user } = await openProviderCredentials({
      extra: { "POST /api/credentials/solis/test": { status: 502 } },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Test Connection" }));
    expect(await findToast("Connection failed")).toBeInTheDocument();
    expect(screen.getByText("Connection test failed")).toBeInTheDocument();
  });

  it("saves, confirms, resets the selection and refreshes credentials, sites and dashboard", async () => {
    let saved = false;
    const { dialog, user, calls, invalidate } = await openProviderCredentials({
      extra: {
        "POST /api/credentials": () => {
          saved = true;
          return {
            status: 201,
            body: {
              message: "Provider credentials have been securely stored. Data sync started in background.",
              sync: { status: "success", message: "Synced", sitesCount: 2, invertersCount: 4 },
            },
          };
        },
        "GET /api/credentials": () => ({ body: saved ? [connection({ systemsCount: 2 })] : [] }),
      },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Save Credentials" }));

    expect(await findToast("Credentials saved")).toBeInTheDocument();
    expect(
      screen.getByText("Provider credentials have been securely stored. Data sync started in background."),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST" && call.path === "/api/credentials")?.body).toEqual({
      provider: "solis",
      credentials: { keyId: "1300386381676644416", keySecret: "sandbox-solis-key-secret" },
    });
    await waitFor(() => expect(within(dialog).queryByRole("form")).not.toBeInTheDocument());
    expect(within(dialog).getByRole("combobox", { name: "Provider" })).toHaveValue("");
    expect(invalidatedKeys(invalidate)).toEqual(
      expect.arrayContaining([["credentials"], ["sites"], ["dashboard"]]),
    );
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    expect(await within(list).findByText("Systems: 2")).toBeInTheDocument();
  });

  it("answers a 401 on save with Session expired and a Log Out action", async () => {
    const { dialog, user } = await openProviderCredentials({
      extra: { "POST /api/credentials": { status: 401, body: { error: "Token expired" } } },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Save Credentials" }));

    expect(await findToast("Session expired")).toBeInTheDocument();
    expect(
      screen.getByText("Your session has expired. Please log out and log back in to continue."),
    ).toBeInTheDocument();
    localStorage.setItem(TOKEN_STORAGE_KEY, "stale");
    localStorage.setItem(USER_STORAGE_KEY, "{}");
    await user.click(screen.getByRole("button", { name: "Log Out" }));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(reloadPage).toHaveBeenCalled();
  });

  it("says Failed to save credentials with the server's error", async () => {
    const { dialog, user } = await openProviderCredentials({
      extra: {
        "POST /api/credentials": {
          status: 400,
          body: {
            error: "API Key ID must not contain spaces",
            code: "validation_failed",
            details: [{ path: ["keyId"], message: "API Key ID must not contain spaces" }],
          },
        },
      },
    });
    const form = await chooseProvider(dialog, user, "solis");
    await fillSolis(form, user);
    await user.click(within(form).getByRole("button", { name: "Save Credentials" }));
    expect(await findToast("Failed to save credentials")).toBeInTheDocument();
    expect(screen.getByText("Some values are not valid: keyId")).toBeInTheDocument();
  });
});

describe("configured providers", () => {
  it("shows status, last sync, newest data in the user's time zone, systems and the last error", async () => {
    const preferences: Preferences = { ...defaultPreferences, timezone: "America/New_York" };
    const { dialog } = await openProviderCredentials({
      preferences,
      credentials: [
        connection(),
        connection({
          provider: "solax",
          status: "needs_attention",
          lastSyncStatus: "failed",
          lastError: "SolaX Cloud refused the token. Check the token ID.",
          newestDataAt: null,
          nextSyncAt: null,
          systemsCount: 0,
        }),
      ],
    });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    const [solis, solax] = within(list).getAllByRole("listitem") as [HTMLElement, HTMLElement];
    const at = (iso: string) => formatDateTime(iso, { locale: "en-GB", timeZone: "America/New_York" });

    expect(within(solis).getByText("SolisCloud")).toBeInTheDocument();
    expect(
      await within(solis).findByText(`Data as of ${at("2026-05-01T08:55:00.000Z")}`),
    ).toBeInTheDocument();
    expect(within(solis).getByText("Connected")).toBeInTheDocument();
    expect(within(solis).getByText(`Last sync ${at("2026-05-01T09:00:05.000Z")}`)).toBeInTheDocument();
    expect(within(solis).getByText("Systems: 3")).toBeInTheDocument();

    expect(within(solax).getByText("Needs attention")).toBeInTheDocument();
    expect(within(solax).getByText("No data yet")).toBeInTheDocument();
    expect(
      within(solax).getByText("SolaX Cloud no longer accepts these credentials. Edit them to reconnect."),
    ).toBeInTheDocument();
    expect(within(solax).getByText("SolaX Cloud refused the token. Check the token ID.")).toBeInTheDocument();
  });

  it("shows progress while Sync now runs, then confirms and refreshes", async () => {
    const { dialog, user, fetchMock, invalidate } = await openProviderCredentials({
      credentials: [connection()],
      extra: {
        "POST /api/providers/solis/sync": {
          body: {
            status: "success",
            sitesCount: 2,
            invertersCount: 5,
            message: "Successfully synced 2 sites and 5 inverters from SolisCloud",
          },
        },
      },
    });
    // Hold the sync's answer until the progress has been seen.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith("/sync")) await gate;
      if (!answer) throw new Error("fetch is not mocked");
      return answer(input, init);
    });

    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    await user.click(within(list).getByRole("button", { name: "Sync now" }));
    expect(
      await within(list).findByText("Fetching sites and readings from SolisCloud. This can take a minute."),
    ).toBeInTheDocument();
    expect(within(list).getAllByText("Syncing…").length).toBeGreaterThanOrEqual(1);
    expect(within(list).queryByText("Connected")).not.toBeInTheDocument();

    release();
    expect(await findToast("Sites synced successfully")).toBeInTheDocument();
    expect(
      screen.getByText("Successfully synced 2 sites and 5 inverters from SolisCloud"),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(invalidatedKeys(invalidate)).toEqual(
        expect.arrayContaining([["sites"], ["credentials"], ["dashboard"], ["alerts"]]),
      ),
    );
    await waitFor(() => expect(within(list).getByText("Connected")).toBeInTheDocument());
  });

  it("shows a running sync's progress from the live channel and the finished-sync toast when it ends", async () => {
    const { dialog } = await openProviderCredentials({ credentials: [connection()] });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    const socket = FakeWebSocket.instances.at(-1);
    act(() => socket?.serverOpens());
    const progress = {
      runId: "run-1",
      provider: "solis",
      status: "running",
      pagesDone: 3,
      pagesTotal: 19,
      systemsStored: 100,
      invertersStored: 150,
      error: null,
    };
    act(() => socket?.serverSends({ type: "sync_progress", data: progress }));
    expect(await within(list).findByText("Pages 3 of 19 · 100 systems stored")).toBeInTheDocument();
    expect(within(list).getAllByText("Syncing…").length).toBeGreaterThanOrEqual(1);
    // Another provider's run is not this connection's.
    act(() =>
      socket?.serverSends({
        type: "sync_progress",
        data: { ...progress, runId: "run-2", provider: "solax", pagesDone: 1 },
      }),
    );
    expect(within(list).queryByText(/Pages 1 of/)).not.toBeInTheDocument();
    act(() =>
      socket?.serverSends({
        type: "sync_progress",
        data: { ...progress, status: "success", pagesDone: 19, systemsStored: 2000, invertersStored: 3100 },
      }),
    );
    expect(await findToast("Sites synced successfully")).toBeInTheDocument();
    expect(
      screen.getByText("Successfully synced 2000 sites and 3100 inverters from the provider"),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText(/systems stored/)).not.toBeInTheDocument());
  });

  it("shows a history run's days on the progress bar and ends it without a sync toast", async () => {
    const { dialog } = await openProviderCredentials({ credentials: [connection()] });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    const socket = FakeWebSocket.instances.at(-1);
    act(() => socket?.serverOpens());
    const progress = {
      runId: "history-1",
      provider: "solis",
      status: "running",
      pagesDone: 0,
      pagesTotal: null,
      systemsStored: 0,
      invertersStored: 0,
      error: null,
      historyDaysDone: 10,
      historyDaysTotal: 93,
    };
    act(() => socket?.serverSends({ type: "sync_progress", data: progress }));
    expect(await within(list).findByText("Days of history 10 of 93 stored")).toBeInTheDocument();
    act(() =>
      socket?.serverSends({
        type: "sync_progress",
        data: { ...progress, status: "success", historyDaysDone: 93 },
      }),
    );
    await waitFor(() => expect(within(list).queryByText(/Days of history/)).not.toBeInTheDocument());
    expect(screen.queryByText("Sites synced successfully")).not.toBeInTheDocument();
  });

  it("says Sync failed with the server's error", async () => {
    const { dialog, user } = await openProviderCredentials({
      credentials: [connection()],
      extra: {
        "POST /api/providers/solis/sync": {
          status: 502,
          body: {
            error: "SolisCloud did not answer in time",
            code: "provider_failure",
            details: { provider: "solis", kind: "timeout", status: "active" },
          },
        },
      },
    });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    await user.click(within(list).getByRole("button", { name: "Sync now" }));
    expect(await findToast("Sync failed")).toBeInTheDocument();
    expect(screen.getByText("Solis did not answer in time.")).toBeInTheDocument();
  });

  it("says Failed to sync sites when the failure carries no error", async () => {
    const { dialog, user } = await openProviderCredentials({
      credentials: [connection()],
      extra: { "POST /api/providers/solis/sync": { status: 503 } },
    });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    await user.click(within(list).getByRole("button", { name: "Sync now" }));
    expect(await findToast("Sync failed")).toBeInTheDocument();
    expect(screen.getByText("Failed to sync sites")).toBeInTheDocument();
  });

  it("opens an empty form for Edit, since saved secrets never come back", async () => {
    const { dialog, user } = await openProviderCredentials({ credentials: [connection()] });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    await user.click(within(list).getByRole("button", { name: "Edit" }));
    const form = await within(dialog).findByRole("form", { name: "SolisCloud credentials" });
    expect(within(form).getByText(/Enter the credentials again to replace them/)).toBeInTheDocument();
    expect(within(form).getByLabelText(/API Key ID/)).toHaveValue("");
    expect(within(form).getByLabelText(/API Key Secret/)).toHaveValue("");
    expect(within(dialog).getByRole("combobox", { name: "Provider" })).toHaveValue("solis");
  });

  it("removes a connection after confirmation", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    const { dialog, user, calls } = await openProviderCredentials({
      credentials: [connection()],
      extra: { "DELETE /api/credentials/solis": { body: { message: "SolisCloud credentials removed" } } },
    });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    await user.click(within(list).getByRole("button", { name: "Remove" }));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining("Remove the SolisCloud credentials?"));
    expect(await findToast("Credentials removed")).toBeInTheDocument();
    expect(calls.some((call) => call.method === "DELETE" && call.path === "/api/credentials/solis")).toBe(
      true,
    );
  });

  it("lists the sync history of a connection on request", async () => {
    const runs: SyncRun[] = [
      {
        id: "run-2",
        provider: "solis",
        trigger: "manual",
        status: "failed",
        startedAt: "2026-05-01T09:00:00.000Z",
        finishedAt: "2026-05-01T09:00:04.000Z",
        error: "SolisCloud did not answer in time",
        errorKind: "timeout",
        sitesCount: 0,
        invertersCount: 0,
        readingsCount: 0,
      },
      {
        id: "run-1",
        provider: "solis",
        trigger: "save",
        status: "success",
        startedAt: "2026-05-01T08:00:00.000Z",
        finishedAt: "2026-05-01T08:00:03.000Z",
        error: null,
        errorKind: null,
        sitesCount: 2,
        invertersCount: 5,
        readingsCount: 7,
      },
    ];
    const { dialog, user } = await openProviderCredentials({
      credentials: [connection()],
      extra: { "GET /api/providers/solis/runs": { body: runs } },
    });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    const toggle = within(list).getByRole("button", { name: "Sync history" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const table = await within(list).findByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("Manual");
    expect(rows[0]).toHaveTextContent("Failed");
    expect(rows[0]).toHaveTextContent("SolisCloud did not answer in time");
    expect(rows[1]).toHaveTextContent("On save");
    expect(rows[1]).toHaveTextContent("2 sites, 5 inverters, 7 readings");
    // Scheduled runs that went well are counted above the list, not listed.
    expect(within(list).getByText("Scheduled syncs that went well (not listed): 1,234")).toBeInTheDocument();
  });

  it("is read-only for role user", async () => {
    const { dialog } = await openProviderCredentials({ role: "user", credentials: [connection()] });
    const list = await within(dialog).findByRole("list", { name: "Configured providers" });
    expect(within(list).getByText("SolisCloud")).toBeInTheDocument();
    expect(
      within(dialog).getByText(/Only organisation owners and engineers can connect/),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole("combobox", { name: "Provider" })).not.toBeInTheDocument();
    for (const name of ["Edit", "Sync now", "Remove"]) {
      expect(within(list).queryByRole("button", { name })).not.toBeInTheDocument();
    }
    // Reading the history is allowed.
    expect(within(list).getByRole("button", { name: "Sync history" })).toBeInTheDocument();
  });
});

describe("Meteronline CSV import", () => {
  const csv = [
    "Timestamp;System ID;System name;Power (kW);Energy today (kWh)",
    "2026-05-01 10:00;MO-1;Roof A;3,2;5,1",
    "2026-05-01 10:15;MO-1;Roof A;3,4;5,9",
    "yesterday;MO-1;Roof A;3,1;6,0",
    "2026-05-01 10:30;;Roof A;3,0;6,5",
  ].join("\n");

  async function uploadExport(extra: Parameters<typeof mockApi>[0]) {
    const preferences: Preferences = { ...defaultPreferences, timezone: "Europe/Amsterdam" };
    const opened = await openProviderCredentials({ preferences, extra });
    await chooseProvider(opened.dialog, opened.user, "meteronline");
    const input = await within(opened.dialog).findByLabelText("CSV file");
    await opened.user.upload(input, new File([csv], "export.csv", { type: "text/csv" }));
    await within(opened.dialog).findByText(/Columns in export\.csv/);
    return opened;
  }

  it("offers the header's columns for the mapping and guesses it", async () => {
    const { dialog } = await uploadExport({});
    const timestamp = within(dialog).getByLabelText("Date and time column");
    expect(
      within(timestamp)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual([
      "Choose a column",
      "Timestamp",
      "System ID",
      "System name",
      "Power (kW)",
      "Energy today (kWh)",
    ]);
    expect(timestamp).toHaveValue("Timestamp");
    expect(within(dialog).getByLabelText("System column")).toHaveValue("System ID");
    expect(within(dialog).getByLabelText("System name column (optional)")).toHaveValue("System name");
    expect(within(dialog).getByLabelText("Power column (optional)")).toHaveValue("Power (kW)");
    expect(within(dialog).getByLabelText("Energy column (optional)")).toHaveValue("Energy today (kWh)");
    expect(within(dialog).getByLabelText("Power unit")).toHaveValue("kW");
    expect(within(dialog).getByLabelText("Time zone of the timestamps")).toHaveValue("Europe/Amsterdam");
  });

  it("imports with the chosen mapping and lists the rows that could not be read", async () => {
    const result: MeteronlineImportResult = {
      message: "Imported 2 readings for 1 systems; 2 rows could not be read",
      rowsRead: 4,
      readingsImported: 2,
      systems: 1,
      errors: [
        { row: 4, error: '"yesterday" is not a date and time' },
        { row: 5, error: 'The system column "System ID" is empty' },
      ],
    };
    const { dialog, user, calls } = await uploadExport({
      "POST /api/providers/meteronline/import": { body: result },
    });
    await user.selectOptions(within(dialog).getByLabelText("System name column (optional)"), "");
    await user.click(within(dialog).getByRole("button", { name: "Import" }));

    expect(await findToast("Import finished")).toBeInTheDocument();
    expect(calls.find((call) => call.path === "/api/providers/meteronline/import")?.body).toEqual({
      csv,
      mapping: {
        timestamp: "Timestamp",
        system: "System ID",
        power: "Power (kW)",
        energy: "Energy today (kWh)",
      },
      units: { power: "kW", energy: "kWh" },
      timezone: "Europe/Amsterdam",
    });
    const summary = within(dialog).getByRole("region", { name: "Import result" });
    expect(within(summary).getByText("Rows read").nextSibling).toHaveTextContent("4");
    expect(within(summary).getByText("Readings imported").nextSibling).toHaveTextContent("2");
    const errors = within(dialog).getByRole("region", { name: "Rows that could not be read" });
    const rows = within(errors).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '4"yesterday" is not a date and time',
      '5The system column "System ID" is empty',
    ]);
  });

  it("shows the file's columns when a mapped column is missing", async () => {
    const { dialog, user } = await uploadExport({
      "POST /api/providers/meteronline/import": {
        status: 400,
        body: {
          error: 'The file has no column named "Power (kW)"',
          code: "unreadable_file",
          details: { missingColumns: ["Power (kW)"], columns: ["Timestamp", "System ID"] },
        },
      },
    });
    await user.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await findToast("Import failed")).toBeInTheDocument();
    expect(within(dialog).getByText("Columns in the file: Timestamp, System ID")).toBeInTheDocument();
  });
});
