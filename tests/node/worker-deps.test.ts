import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workerOptimizedDeps } from "../worker-deps";

const root = path.resolve(import.meta.dirname, "../..");

/** Every package entry (not `cloudflare:`, `node:` or vitest itself) imported by TypeScript under `dir`. */
function packageImports(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"/gm),
      ...text.matchAll(/^\s*import\s*"([^"]+)"/gm),
      ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
    ].map((match) => match[1] as string);
    for (const specifier of specifiers) {
      if (/^[./]|^(cloudflare|node):/.test(specifier) || specifier === "vitest") continue;
      found.add(specifier);
    }
  }
  return found;
}

describe("the worker tests' pre-bundled dependencies", () => {
  it("list every package entry the worker, the schema, the worker tests and the benchmarks import, and no other", () => {
    const imported = new Set([
      ...packageImports("worker"),
      ...packageImports("schema"),
      ...packageImports("tests/worker"),
      ...packageImports("tests/bench"),
    ]);
    expect([...imported].sort()).toEqual([...workerOptimizedDeps].sort());
  });
});
