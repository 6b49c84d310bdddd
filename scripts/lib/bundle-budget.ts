import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** One record of Vite's `.vite/manifest.json` (`build.manifest: true`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Chunks this one imports statically: the browser fetches (and Vite modulepreloads) them with it. */
  imports?: string[];
  /** Chunks this one may load later with `import()`: not part of its first download. */
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** A page: the manifest keys whose code runs before it is shown, and the most gzip bytes it may download. */
export interface PageBudget {
  name: string;
  chunks: string[];
  /**
   * Chunks loaded on demand on top of the page, in sets of which a visitor downloads one (one
   * language's strings): the page is checked with the largest set added.
   */
  perVisitorExtras?: string[][];
  /** The build fails above this. */
  maxGzipBytes: number;
  /** Where the budget is heading while it is still above it: printed, not enforced. */
  targetGzipBytes?: number;
}

export interface BudgetOptions {
  pages: PageBudget[];
}

const KB = 1000;
export const formatKb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** The JS files fetched for these manifest keys: their own files and, transitively, their static imports. */
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`"${key}" is not in the build manifest`);
    if (chunk.file.endsWith(".js")) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const sum = (files: Iterable<string>, sizeOf: (file: string) => number) => {
  let total = 0;
  for (const file of files) total += sizeOf(file);
  return total;
};

export interface PageReport {
  name: string;
  gzipBytes: number;
  /** With the largest set of per-visitor extras (one language's strings) added. */
  worstGzipBytes: number;
  worstExtra?: string[];
  maxGzipBytes: number;
  targetGzipBytes?: number;
  ok: boolean;
}

export function measurePages(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  options: BudgetOptions,
): PageReport[] {
  return options.pages.map((page) => {
    const files = staticClosure(manifest, page.chunks);
    const gzipBytes = sum(files, sizeOf);
    let worstGzipBytes = gzipBytes;
    let worstExtra: string[] | undefined;
    for (const extra of page.perVisitorExtras ?? []) {
      const added = [...staticClosure(manifest, extra)].filter((file) => !files.has(file));
      const total = gzipBytes + sum(added, sizeOf);
      if (total > worstGzipBytes) {
        worstGzipBytes = total;
        worstExtra = extra;
      }
    }
    return {
      name: page.name,
      gzipBytes,
      worstGzipBytes,
      worstExtra,
      maxGzipBytes: page.maxGzipBytes,
      targetGzipBytes: page.targetGzipBytes,
      ok: worstGzipBytes <= page.maxGzipBytes,
    };
  });
}

/** Every entry (the HTML entry, each route's split component, each lazy chunk) with its first download. */
export function entryReport(manifest: Manifest, sizeOf: (file: string) => number) {
  const htmlEntries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  return Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry || chunk.isDynamicEntry)
    .map(([key, chunk]) => {
      // A lazy chunk only ever loads after the HTML entry, so its first download is counted with it.
      const withEntry = chunk.isEntry ? [key] : [...htmlEntries, key];
      return {
        key,
        ownGzipBytes: sizeOf(chunk.file),
        gzipBytes: sum(staticClosure(manifest, withEntry), sizeOf),
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * Prints every entry's compressed JavaScript and each page's total after `vite build`, and fails the
 * build when a page is over its budget. Sizes are gzip (zlib's default level) of the emitted files.
 */
export function bundleBudget(options: BudgetOptions): Plugin {
  return {
    name: "sunfleet:bundle-budget",
    apply: "build",
    writeBundle(_output, bundle) {
      const manifestAsset = bundle[".vite/manifest.json"];
      if (manifestAsset?.type !== "asset") {
        this.error("bundle budgets need `build.manifest: true`");
      }
      const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
      const sizes = new Map<string, number>();
      const sizeOf = (file: string) => {
        let size = sizes.get(file);
        if (size === undefined) {
          const output = bundle[file];
          if (output?.type !== "chunk") throw new Error(`${file} is not a chunk of this build`);
          size = gzipSync(output.code).length;
          sizes.set(file, size);
        }
        return size;
      };

      const lines = ["", "JavaScript per entry (gzip: own file / with everything it imports statically):"];
      for (const entry of entryReport(manifest, sizeOf)) {
        lines.push(
          `  ${entry.key.padEnd(58)} ${formatKb(entry.ownGzipBytes).padStart(9)} / ${formatKb(entry.gzipBytes).padStart(9)}`,
        );
      }
      lines.push("", "JavaScript per page (gzip, HTML entry + route chunks + static imports; budget):");
      const pages = measurePages(manifest, sizeOf, options);
      for (const page of pages) {
        const worst = page.worstExtra
          ? `, ${formatKb(page.worstGzipBytes)} with ${page.worstExtra.map((key) => key.split("/").slice(-2).join("/")).join(" + ")}`
          : "";
        const target =
          page.targetGzipBytes !== undefined && page.worstGzipBytes > page.targetGzipBytes
            ? `; target ${formatKb(page.targetGzipBytes)} not met`
            : "";
        lines.push(
          `  ${page.ok ? "ok  " : "OVER"} ${page.name.padEnd(12)} ${formatKb(page.gzipBytes).padStart(9)}${worst} (budget ${formatKb(page.maxGzipBytes)}${target})`,
        );
      }
      console.log(lines.join("\n"));
      const over = pages.filter((page) => !page.ok);
      if (over.length > 0) {
        this.error(`JavaScript budget exceeded: ${over.map((page) => page.name).join(", ")}`);
      }
    },
  };
}
