import { describe, expect, it, vi } from "vitest";
import {
  ApiRequestError,
  api,
  apiPath,
  getOrNull,
  NOT_AUTHENTICATED,
  setUnauthorizedHandler,
} from "../../web/lib/api";
import { errorDescription } from "../../web/lib/error-messages";
import { TOKEN_STORAGE_KEY } from "../../web/lib/session";
import { mockApi } from "./helpers";

describe("api client", () => {
  it("prefixes paths with /api only when they lack it", () => {
    expect(apiPath("/users")).toBe("/api/users");
    expect(apiPath("users")).toBe("/api/users");
    expect(apiPath("/api/users")).toBe("/api/users");
    expect(apiPath("/api")).toBe("/api");
    expect(apiPath("/apiary")).toBe("/api/apiary");
  });

  it("sends JSON with the bearer token from localStorage", async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, "tok-1");
    const { calls } = mockApi({ "POST /api/users/invite": { body: { ok: true } } });
    const answer = await api.post("/users/invite", { json: { email: "a@b.example", role: "user" } });
    expect(answer).toEqual({ ok: true });
    const [call] = calls;
    expect(call?.path).toBe("/api/users/invite");
    expect(call?.headers.get("Authorization")).toBe("Bearer tok-1");
    expect(call?.headers.get("Content-Type")).toBe("application/json");
    expect(call?.body).toEqual({ email: "a@b.example", role: "user" });
  });

  it("fails an authenticated call without a token with Not authenticated, without a request", async () => {
    const { fetchMock } = mockApi({});
    await expect(api.get("/users")).rejects.toThrow(NOT_AUTHENTICATED);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends public calls without a token", async () => {
    const { calls } = mockApi({ "POST /api/auth/login": { body: { token: "t" } } });
    await api.post("/auth/login", { json: { email: "a@b.example", password: "pw" }, auth: false });
    expect(calls[0]?.headers.has("Authorization")).toBe(false);
  });

  it("turns a non-OK answer into `status: body` and keeps the server's code, error and details", async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, "tok-1");
    const body = {
      error: "Invalid input",
      code: "validation_failed",
      details: [{ path: ["role"], message: "Role is not assignable" }],
    };
    mockApi({ "PATCH /api/users/u1/role": { status: 400, body } });
    const error = await api
      .patch("/users/:id/role", { param: { id: "u1" }, json: { role: "superAdmin" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    const apiError = error as ApiRequestError;
    expect(apiError.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(apiError.status).toBe(400);
    expect(apiError.serverError).toBe("Invalid input");
    expect(apiError.code).toBe("validation_failed");
    expect(apiError.details).toEqual(body.details);
    // The code in the user's language, naming the field; never the server's English.
    expect(errorDescription(apiError, "fallback")).toBe("Some values are not valid: role");
  });

  it("uses the status text when the error body is empty", async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, "tok-1");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("", { status: 503, statusText: "Service Unavailable" })),
    );
    await expect(api.get("/health")).rejects.toThrow("503: Service Unavailable");
    expect(errorDescription(new Error("boom"), "fallback")).toBe("fallback");
  });

  it("reads Retry-After on a throttled answer", async () => {
    mockApi({
      "POST /api/auth/login": {
        status: 429,
        body: {
          error: "Too many attempts. Try again later.",
          code: "rate_limited",
          details: { retryAfterSeconds: 60 },
        },
        headers: { "Retry-After": "60" },
      },
    });
    const error = (await api
      .post("/auth/login", { json: { email: "a@b.example", password: "pw" }, auth: false })
      .catch((e: unknown) => e)) as ApiRequestError;
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(60);
    expect(error.code).toBe("rate_limited");
    expect(errorDescription(error, "x")).toBe("Too many attempts. Try again in 60 s.");
  });

  it("lets a read turn 401 into null, while a plain read throws and signals the session", async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, "expired");
    mockApi({ "GET /api/user/profile": { status: 401, body: { error: "Not authenticated" } } });
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    try {
      await expect(getOrNull("/user/profile")).resolves.toBeNull();
      expect(onUnauthorized).not.toHaveBeenCalled();
      await expect(api.get("/user/profile")).rejects.toThrow(/^401: /);
      expect(onUnauthorized).toHaveBeenCalledOnce();
    } finally {
      setUnauthorizedHandler(null);
    }
  });

  it("does not treat a failed login (401 on a public call) as an expired session", async () => {
    mockApi({ "POST /api/auth/login": { status: 401, body: { error: "Invalid credentials" } } });
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    try {
      await expect(
        api.post("/auth/login", { json: { email: "a@b.example", password: "wrong" }, auth: false }),
      ).rejects.toThrow("401: ");
      expect(onUnauthorized).not.toHaveBeenCalled();
    } finally {
      setUnauthorizedHandler(null);
    }
  });
});
