import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const persistDir = mkdtempSync(path.join(tmpdir(), "sunfleet-admin-"));
const offline = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

const adminCreate = (...args: string[]) =>
  spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "scripts/admin-create.ts",
      ...args,
      "--persist-to",
      persistDir,
    ],
    { cwd: root, env: offline, encoding: "utf8" },
  );

afterAll(() => rmSync(persistDir, { recursive: true, force: true }));

describe("npm run admin:create", () => {
  it("creates a superAdmin without an organisation, with a hashed password", () => {
    const created = adminCreate("--email", "Ops@Example.com", "--password", "supersecret1");
    expect(created.status, created.stderr).toBe(0);
    const query = spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules/wrangler/bin/wrangler.js"),
        "d1",
        "execute",
        "DB",
        "--local",
        "--persist-to",
        persistDir,
        "--json",
        "--command",
        "SELECT email, role, org_id, password_hash, password_iterations FROM users",
      ],
      { cwd: root, env: offline, encoding: "utf8" },
    );
    expect(query.status, query.stderr).toBe(0);
    const [{ results }] = JSON.parse(query.stdout) as [{ results: Record<string, unknown>[] }];
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ email: "ops@example.com", role: "superAdmin", org_id: null });
    expect(results[0]?.password_hash).not.toContain("supersecret1");
    expect(results[0]?.password_iterations).toBe(100_000);
  }, 180_000);

  it("refuses a second account for the same email and a short password", () => {
    expect(adminCreate("--email", "ops@example.com", "--password", "supersecret1").status).toBe(1);
    const weak = adminCreate("--email", "other@example.com", "--password", "short");
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/8 to 128 characters/);
  }, 180_000);
});
