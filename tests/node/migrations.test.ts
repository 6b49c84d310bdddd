import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

const stores = [
  { name: "D1", folder: "migrations", config: "drizzle.config.ts" },
  {
    name: "the fleet store (Durable Object)",
    folder: "worker/fleet/migrations",
    config: "drizzle.fleet.config.ts",
  },
];

describe.each(stores)("migrations of $name", ({ folder, config }) => {
  it("match the drizzle schema: generating again produces no new migration", () => {
    // drizzle-kit only accepts an output folder relative to the project.
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    const out = path.relative(root, mkdtempSync(path.join(root, "test-results", "migrations-")));
    cpSync(path.join(root, folder), path.join(root, out), { recursive: true });
    const before = readdirSync(path.join(root, out)).sort();
    try {
      const result = spawnSync(
        process.execPath,
        [path.join(root, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", config],
        { cwd: root, env: { ...process.env, DRIZZLE_OUT: out }, encoding: "utf8" },
      );
      const output = `${result.stdout}${result.stderr}`;
      expect(result.status, output).toBe(0);
      expect(output).not.toMatch(/error/i);
      expect(readdirSync(path.join(root, out)).sort()).toEqual(before);
    } finally {
      rmSync(path.join(root, out), { recursive: true, force: true });
    }
  }, 60_000);
});
