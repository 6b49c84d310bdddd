import { readFileSync } from "node:fs";
import { type Plugin, parseAst } from "vite";

const PACKAGE = "@remixicon/react";
const PREFIX = "\0remixicon:";
const BARREL = `${PREFIX}index`;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/**
 * `@remixicon/react` ships every icon in one module, so the bundler puts every icon the app uses in
 * one chunk that each page downloads whole. This serves the package as a barrel of one module per
 * icon instead: each page's chunk carries the icons it draws. Each icon of the package is an arrow
 * function over React's `createElement`; anything else fails the build rather than change behaviour.
 */
export function iconsPerModule(): Plugin {
  let icons: Map<string, string> | undefined;

  function readIcons(file: string): Map<string, string> {
    const code = readFileSync(file, "utf8");
    const program = parseAst(code) as unknown as { body: Node[] };
    const sources = new Map<string, string>();
    const exported = new Map<string, string>();
    for (const statement of program.body) {
      if (statement.type === "VariableDeclaration") {
        for (const declarator of statement.declarations as Node[]) {
          const id = declarator.id as Node & { name: string };
          const init = declarator.init as Node;
          if (init.type !== "ArrowFunctionExpression") {
            throw new Error(
              `${PACKAGE}: ${id.name} is not an arrow function; update ${import.meta.filename}`,
            );
          }
          sources.set(id.name, code.slice(init.start, init.end));
        }
      } else if (statement.type === "ExportNamedDeclaration") {
        for (const specifier of statement.specifiers as Node[]) {
          const local = specifier.local as Node & { name: string };
          const name = specifier.exported as Node & { name: string };
          exported.set(name.name, local.name);
        }
      } else if (statement.type !== "ImportDeclaration") {
        throw new Error(`${PACKAGE}: unexpected ${statement.type}; update ${import.meta.filename}`);
      }
    }
    const byName = new Map<string, string>();
    for (const [name, local] of exported) {
      const source = sources.get(local);
      if (source === undefined) throw new Error(`${PACKAGE}: ${name} has no definition`);
      byName.set(name, source);
    }
    return byName;
  }

  return {
    name: "sunfleet:icons-per-module",
    enforce: "pre",
    async resolveId(source, importer) {
      if (source === PACKAGE && importer !== BARREL) {
        if (!icons) {
          const resolved = await this.resolve(PACKAGE, importer, { skipSelf: true });
          if (!resolved) throw new Error(`${PACKAGE} is not installed`);
          icons = readIcons(resolved.id);
        }
        return { id: BARREL, moduleSideEffects: false };
      }
      if (source.startsWith(PREFIX)) return { id: source, moduleSideEffects: false };
      return null;
    },
    load(id) {
      if (!id.startsWith(PREFIX) || !icons) return null;
      if (id === BARREL) {
        return [...icons.keys()].map((name) => `export { ${name} } from "${PREFIX}${name}";`).join("\n");
      }
      const name = id.slice(PREFIX.length);
      const source = icons.get(name);
      if (source === undefined) return null;
      return `import t from "react";\nexport const ${name} = ${source};\n`;
    },
  };
}
