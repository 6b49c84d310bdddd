import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(import.meta.dirname, "../..");

const sourcesUnder = (folder: string): string[] =>
  readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));

/** Every import, re-export or dynamic import of a module under worker/ in a file. */
const workerImports = (text: string) =>
  [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+["']((?:\.\.\/)+worker\/[^"']*)["']/gms),
    ...text.matchAll(/\bimport\(\s*["']((?:\.\.\/)+worker\/[^"']*)["']\s*\)/g),
  ].map((match) => match[0].trim());

describe("the client and the server's code", () => {
  it("web/ imports from worker/ only types (the API's routes), so no server code reaches the bundle", () => {
    const valueImports = sourcesUnder("web").flatMap((file) =>
      workerImports(readFileSync(path.join(root, file), "utf8"))
        .filter((statement) => !/^(import|export)\s+type\b/.test(statement))
        .map((statement) => `${file}: ${statement}`),
    );
    expect(valueImports).toEqual([]);
  });

  it("finds the type import the API client is typed from", () => {
    const client = readFileSync(path.join(root, "web/lib/api.ts"), "utf8");
    expect(workerImports(client)).toEqual(['import type { AppType } from "../../worker/app"']);
  });
});
