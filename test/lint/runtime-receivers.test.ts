// A static guard over worker/ and contract/: in workerd, functions of the global scope
// (`fetch`, timers …) and methods of runtime objects (`crypto.subtle.*`,
// `scheduler.*`, `caches.*`, `crypto.*`, `performance.*`) throw "Illegal
// invocation" when called without their receiver — after being stored as an
// object property (`{fetcher: fetch}`, `private readonly fetcher = fetch`),
// assigned to a variable or destructured. vitest-pool-workers does not catch
// it (its `fetch` is not workerd's), so this test reads the sources instead,
// with the TypeScript parser. It also keeps every outbound request in the
// one HttpClient: `fetch(…)` may only be called in worker/services/http-client.ts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FETCH_OWNER = "worker/services/http-client.ts";
/** Functions of the global scope that need it as their receiver. */
const GLOBAL_FUNCTIONS = new Set(["fetch", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "queueMicrotask", "structuredClone", "atob", "btoa", "reportError"]);
/** Runtime objects whose methods must be called on them; the objects themselves may be passed around. */
const RUNTIME_OBJECTS = new Set(["crypto", "crypto.subtle", "scheduler", "caches", "caches.default", "performance"]);
const GLOBAL_SCOPE = new Set(["globalThis", "self"]);

function isTypePosition(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isTypeNode(p) || ts.isTypeAliasDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isHeritageClause(p)) return true;
    if (ts.isStatement(p) || ts.isExpressionStatement(p)) return false;
  }
  return false;
}

/** An identifier that only names something (a declaration, a property key, a member after a dot). */
function isNameOnly(node: ts.Identifier): boolean {
  const p = node.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === node) return true;
  if ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) && p.name === node) return true;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isBindingElement(p) || ts.isClassDeclaration(p)) && p.name === node) return true;
  if (ts.isBindingElement(p) && p.propertyName === node) return true;
  if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p)) return true;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return true;
  return false;
}

const isCallee = (node: ts.Node) => ts.isCallExpression(node.parent) && node.parent.expression === node;

/** Every place in `source` that detaches a runtime function from its receiver, or calls `fetch` outside the HttpClient. */
export function findDetachedRuntimeFunctions(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${fileName}:${line + 1}:${character + 1} ${what}: ${node.getText(file)}`);
  };
  const globalFunctionUse = (node: ts.Node, name: string) => {
    if (!isCallee(node)) at(node, `\`${name}\` used as a value (call it directly; outbound requests go through HttpClient)`);
    else if (name === "fetch" && fileName !== FETCH_OWNER) at(node, "`fetch` called outside the HttpClient (worker/services/http-client.ts)");
  };
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && GLOBAL_FUNCTIONS.has(node.text) && !isNameOnly(node) && !isTypePosition(node)) {
      globalFunctionUse(node, node.text);
    } else if (ts.isPropertyAccessExpression(node) && !isTypePosition(node)) {
      const owner = node.expression.getText(file);
      const member = node.name.text;
      if (GLOBAL_SCOPE.has(owner) && GLOBAL_FUNCTIONS.has(member)) globalFunctionUse(node, `${owner}.${member}`);
      else if (RUNTIME_OBJECTS.has(owner) && !RUNTIME_OBJECTS.has(`${owner}.${member}`) && !isCallee(node)) {
        at(node, `\`${owner}.${member}\` used as a value (call it on \`${owner}\`)`);
      }
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer) {
      const from = node.initializer.getText(file);
      if (RUNTIME_OBJECTS.has(from) || GLOBAL_SCOPE.has(from)) at(node, `methods destructured from \`${from}\``);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

describe("runtime functions keep their receiver (workerd's Illegal invocation)", () => {
  it("no source under worker/ or contract/ (which the Worker runs too) detaches fetch, crypto.subtle.*, scheduler.*, caches.* … or calls fetch outside the HttpClient", () => {
    const files = [...sourcesUnder(path.join(ROOT, "worker")), ...sourcesUnder(path.join(ROOT, "contract"))];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((full) => findDetachedRuntimeFunctions(path.relative(ROOT, full).split(path.sep).join("/"), readFileSync(full, "utf8")));
    expect(found).toEqual([]);
  });

  it("the HttpClient itself calls the global fetch, as a plain call", () => {
    const source = readFileSync(path.join(ROOT, FETCH_OWNER), "utf8");
    expect(source).toMatch(/=> fetch\(input, init\)/);
    expect(findDetachedRuntimeFunctions(FETCH_OWNER, source)).toEqual([]);
  });

  const detached: Record<string, string> = {
    "fetch as an object property (issue 13, queues/jobs.ts)": "const ctx = { fetcher: fetch };",
    "fetch as a shorthand property": "const ctx = { fetch };",
    "fetch as a class field (issue 13, url-safety.ts)": "class R { private readonly fetcher = fetch; }",
    "fetch as a default parameter": "class R { constructor(private readonly f: typeof fetch = fetch) {} }",
    "fetch assigned to a variable": "const f = fetch;",
    "fetch passed as an argument": "run(fetch, url);",
    "fetch bound": "const f = fetch.bind(globalThis);",
    "globalThis.fetch stored": "const f = globalThis.fetch;",
    "fetch called outside the client": "await fetch('https://example.com');",
    "crypto.subtle method stored": "const digest = crypto.subtle.digest;",
    "crypto.subtle methods destructured": "const { sign, verify } = crypto.subtle;",
    "crypto.getRandomValues passed": "fill(crypto.getRandomValues);",
    "scheduler.wait stored": "const wait = scheduler.wait;",
    "caches.default.match stored": "const match = caches.default.match;",
    "caches.open stored": "const o = { open: caches.open };",
    "setTimeout passed as a value": "const later = { schedule: setTimeout };",
  };
  for (const [what, code] of Object.entries(detached)) {
    it(`flags ${what}`, () => {
      expect(findDetachedRuntimeFunctions("worker/example.ts", code)).toHaveLength(1);
    });
  }

  it("accepts calls with the receiver, type positions, members of other objects and the runtime objects themselves", () => {
    const fine = [
      "const hash = await crypto.subtle.digest('SHA-256', bytes);",
      "const subtle = crypto.subtle; await subtle.sign('HMAC', key, data);",
      "const cache = caches.default; await cache.match(req);",
      "await scheduler.wait(10);",
      "setTimeout(resolve, 100);",
      "const id = crypto.randomUUID();",
      "type F = typeof fetch; interface X { fetch: typeof fetch }",
      "export default { fetch: app.fetch, queue };",
      "await env.SERVICE.fetch(request); await stub.fetch(url);",
      "const res = await services.http.fetchPublic(url, req);",
      "const o = { fetch(req: Request) { return new Response(); } };",
    ];
    for (const code of fine) expect(findDetachedRuntimeFunctions("worker/example.ts", code), code).toEqual([]);
  });
});
