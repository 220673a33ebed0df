// The project's import graph, read with the TypeScript compiler's own parser
// (`preProcessFile`) and module resolution (the project's tsconfig), so what
// counts as an import here is what counts for `tsc`: static imports, `import
// type`, re-exports and dynamic `import()`. Type-only imports count too: a
// module's dependencies should point one way whether or not they survive
// compilation (docs/architecture.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ImportGraph {
  /** Project file (relative to the root) → the project files it imports. */
  internal: Map<string, string[]>;
  /** Project file → the packages it imports (bare specifiers, `node:` and `cloudflare:` modules). */
  external: Map<string, string[]>;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");

/** Every source file of the project under `roots` (folders relative to the root), with what it imports. */
export function readImportGraph(roots: string[]): ImportGraph {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const inRoots = (file: string) => roots.some((r) => rel(file).startsWith(`${r}/`));
  const files = parsed.fileNames.filter((f) => inRoots(f) && !f.endsWith(".d.ts"));
  const internal = new Map<string, string[]>();
  const external = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const own: string[] = [];
    const packages: string[] = [];
    for (const { fileName: specifier } of importedFiles) {
      const resolved = ts.resolveModuleName(specifier, file, parsed.options, ts.sys).resolvedModule;
      const inPackage = resolved?.resolvedFileName.split("/node_modules/")[1];
      if (inPackage !== undefined) {
        packages.push(specifier.startsWith(".") ? inPackage : specifier); // a relative path into node_modules names the package's file
      } else if (specifier.startsWith(".") || resolved) {
        if (!resolved) throw new Error(`${rel(file)}: cannot resolve '${specifier}'`);
        own.push(rel(resolved.resolvedFileName));
      } else {
        packages.push(specifier); // node: and cloudflare: modules, and packages without types
      }
    }
    internal.set(rel(file), [...new Set(own)]);
    external.set(rel(file), [...new Set(packages)]);
  }
  return { internal, external };
}

export interface ImportCycle {
  /** Every file of one strongly connected component: each reaches every other. */
  files: string[];
  /** A shortest cycle through its first file, `a → b → … → a`, for the message. */
  example: string[];
}

/** Every import cycle: one per strongly connected component of the graph (Tarjan's algorithm). */
export function findCycles(graph: Map<string, string[]>): ImportCycle[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => ({ files: component.sort(), example: cyclePath(graph, new Set(component)) }));
}

/** A shortest cycle through the component's first file (alphabetically). */
function cyclePath(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
