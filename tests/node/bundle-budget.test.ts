import { describe, expect, it } from "vitest";
import { type Manifest, measurePages, staticClosure } from "../../scripts/lib/bundle-budget";

/** A build shaped like Vite's: an HTML entry, two lazy routes sharing a chunk, a lazy language. */
const manifest: Manifest = {
  "index.html": {
    file: "assets/index.js",
    isEntry: true,
    imports: ["_react.js"],
    dynamicImports: ["a.tsx", "b.tsx", "es.ts"],
  },
  "_react.js": { file: "assets/react.js" },
  "_shared.js": { file: "assets/shared.js", imports: ["_react.js"] },
  "_charts.js": { file: "assets/charts.js", imports: ["_shared.js"] },
  "a.tsx": { file: "assets/a.js", isDynamicEntry: true, imports: ["_shared.js", "index.html"] },
  "b.tsx": {
    file: "assets/b.js",
    isDynamicEntry: true,
    imports: ["_charts.js"],
    dynamicImports: ["_lazy.js"],
  },
  "_lazy.js": { file: "assets/lazy.js" },
  "es.ts": { file: "assets/es.js", isDynamicEntry: true },
};
const sizes: Record<string, number> = {
  "assets/index.js": 10,
  "assets/react.js": 40,
  "assets/shared.js": 5,
  "assets/charts.js": 100,
  "assets/a.js": 1,
  "assets/b.js": 2,
  "assets/lazy.js": 1000,
  "assets/es.js": 7,
};
const sizeOf = (file: string) => sizes[file] ?? Number.NaN;

describe("bundle budgets", () => {
  it("counts a chunk's static imports transitively, once each, and never its dynamic imports", () => {
    expect([...staticClosure(manifest, ["index.html", "b.tsx"])].sort()).toEqual([
      "assets/b.js",
      "assets/charts.js",
      "assets/index.js",
      "assets/react.js",
      "assets/shared.js",
    ]);
  });

  it("fails loudly on a page naming a chunk the build does not have", () => {
    expect(() => staticClosure(manifest, ["missing.tsx"])).toThrow(/missing.tsx/);
  });

  it("measures each page with the largest per-visitor extra and checks it against the budget", () => {
    const [a, b] = measurePages(manifest, sizeOf, {
      pages: [
        { name: "a", chunks: ["index.html", "a.tsx"], perVisitorExtras: [["es.ts"]], maxGzipBytes: 63 },
        {
          name: "b",
          chunks: ["index.html", "b.tsx"],
          perVisitorExtras: [["es.ts"]],
          maxGzipBytes: 200,
          targetGzipBytes: 100,
        },
      ],
    });
    expect(a).toMatchObject({ gzipBytes: 56, worstGzipBytes: 63, worstExtra: ["es.ts"], ok: true });
    expect(b).toMatchObject({ gzipBytes: 157, worstGzipBytes: 164, ok: true, targetGzipBytes: 100 });
    const [tight] = measurePages(manifest, sizeOf, {
      pages: [
        { name: "a", chunks: ["index.html", "a.tsx"], perVisitorExtras: [["es.ts"]], maxGzipBytes: 62 },
      ],
    });
    expect(tight?.ok).toBe(false);
  });

  it("adds the largest set of extras, each set counted whole and without what the page already loads", () => {
    const [page] = measurePages(manifest, sizeOf, {
      pages: [
        {
          name: "a",
          chunks: ["index.html", "a.tsx"],
          // es alone is 7; the second set is 7 + 1000, with react (already loaded by the page) not counted again.
          perVisitorExtras: [["es.ts"], ["es.ts", "_lazy.js", "_react.js"]],
          maxGzipBytes: 2000,
        },
      ],
    });
    expect(page).toMatchObject({
      gzipBytes: 56,
      worstGzipBytes: 56 + 7 + 1000,
      worstExtra: ["es.ts", "_lazy.js", "_react.js"],
    });
  });
});
