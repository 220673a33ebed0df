// Which part may import which (docs/architecture.md): the Worker and the runner
// meet only in contract/, the contract is plain code both runtimes can load,
// and everything the runner loads is installed by `npm ci --omit=dev` on a GPU host.
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readImportGraph, ROOT } from "./import-graph";

const graph = readImportGraph(["worker", "gpu-runner", "contract", "drizzle"]);
const under = (dir: string) => [...graph.internal.keys()].filter((f) => f.startsWith(`${dir}/`));
const part = (file: string) => file.split("/")[0];

/** `file imports target` for every import of a file under `dir` that lands outside the parts it may use. */
function importsOutside(dir: string, allowed: string[]): string[] {
  return under(dir).flatMap((file) => graph.internal.get(file)!.filter((t) => !allowed.includes(part(t))).map((t) => `${file} imports ${t}`));
}

/** The package a specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

/** The Worker's parts, top to bottom, and what each may import (besides contract/, drizzle/ and packages). */
const WORKER_LAYERS: Record<string, string[]> = {
  entry: ["*"], // index.ts (fetch, queue, scheduled), app.ts (registers every route) and apis.ts (the two documented APIs)
  routes: ["routes", "mcp", "hub", "middleware", "services", "durable-objects", "schemas", "lib", "env"],
  queues: ["queues", "middleware", "services", "durable-objects", "schemas", "lib", "env"],
  mcp: ["mcp", "services", "schemas", "lib", "env"],
  hub: ["hub", "services", "schemas", "lib", "env"],
  middleware: ["middleware", "services", "durable-objects", "schemas", "lib", "env"],
  services: ["services", "durable-objects", "schemas", "lib", "env"],
  "durable-objects": ["durable-objects", "lib"],
  schemas: ["schemas", "lib"],
  lib: ["lib", "env"],
  // Types only (checked below): the bindings name the Durable Object classes, the per-request services their client.
  env: ["durable-objects", "services", "lib"],
};

function workerLayer(file: string): string {
  const rest = file.slice("worker/".length);
  if (rest === "index.ts" || rest === "app.ts" || rest === "apis.ts") return "entry";
  if (rest === "env.ts") return "env";
  if (rest === "errors.ts" || rest === "ids.ts") return "lib";
  return rest.split("/")[0];
}

describe("layers", () => {
  it("the contract imports only zod, ipaddr.js and itself", () => {
    expect(under("contract").length).toBeGreaterThanOrEqual(3);
    expect(importsOutside("contract", ["contract"])).toEqual([]);
    const packages = under("contract").flatMap((f) => graph.external.get(f)!.map((p) => `${f}: ${p}`));
    expect(packages.filter((p) => !/: (zod|ipaddr\.js)$/.test(p))).toEqual([]);
  });

  it("the runner never imports the Worker, and the Worker never imports the runner", () => {
    expect(importsOutside("gpu-runner", ["gpu-runner", "contract"])).toEqual([]);
    expect(importsOutside("worker", ["worker", "contract", "drizzle"])).toEqual([]);
  });

  it("inside the Worker, each part imports only the parts below it", () => {
    const files = under("worker");
    expect(new Set(files.map(workerLayer))).toEqual(new Set(Object.keys(WORKER_LAYERS)));
    const wrong = files.flatMap((file) => {
      const allowed = WORKER_LAYERS[workerLayer(file)];
      if (allowed.includes("*")) return [];
      return graph.internal
        .get(file)!
        .filter((t) => t.startsWith("worker/") && !allowed.includes(workerLayer(t)) && workerLayer(t) !== workerLayer(file))
        .map((t) => `${file} (${workerLayer(file)}) imports ${t} (${workerLayer(t)})`);
    });
    expect(wrong).toEqual([]);
    const envImports = readFileSync(path.join(ROOT, "worker/env.ts"), "utf8").split("\n").filter((l) => /^import\b/.test(l));
    expect(envImports.length).toBeGreaterThan(0);
    expect(envImports.filter((l) => !l.startsWith("import type "))).toEqual([]);
  });

  it("the runner's stages (media, vision, analysis) know nothing of the API or the loops", () => {
    const stages = ["gpu-runner/media/", "gpu-runner/vision/", "gpu-runner/analysis/"];
    const wiring = ["gpu-runner/main.ts", "gpu-runner/loop.ts", "gpu-runner/job.ts", "gpu-runner/api.ts", "gpu-runner/result.ts"];
    const files = under("gpu-runner").filter((f) => stages.some((s) => f.startsWith(s)));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => graph.internal.get(f)!.filter((t) => wiring.includes(t)).map((t) => `${f} imports ${t}`))).toEqual([]);
  });

  it("every package the runner loads is a production dependency (GPU hosts run npm ci --omit=dev)", () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    // Everything reachable from the runner's entry point, through its own files and the contract.
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.internal.get(file) ?? []) visit(next);
    };
    visit("gpu-runner/main.ts");
    expect(reached.size).toBeGreaterThan(30);
    expect(reached.has("contract/runner-api.ts")).toBe(true);
    const missing = [...reached].flatMap((file) =>
      graph.external
        .get(file)!
        .filter((s) => !s.startsWith("node:") && !builtins.has(s) && !(packageOf(s) in dependencies))
        .map((s) => `${file}: ${s}`),
    );
    expect(missing).toEqual([]);
  });
});
