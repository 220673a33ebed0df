// gpu-runner/analysis is split by role (issue 24, point 3; docs/architecture.md):
//   observe/      reads video: decoding, the model's passes, windows (real footage)
//   rules/        pure basketball rules over observations: tracks, rims, attempts, players, box scores
//   whole-frame/  the whole-frame path of a YOLO-contract detector (the synthetic games' fixture)
// with pipeline.ts wiring them, types.ts, metrics.ts and artifact-rows.ts beside. The rules must stay
// pure: nothing they load, however indirectly, decodes video or runs a model, so they are tested on
// small arrays rather than encoded videos. The passes of observe/ take their frames from a frame source
// handed in (media/frames.ts) rather than decoding the video themselves, so they too are tested on
// pictures in memory.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readImportGraph, ROOT } from "./import-graph";

const ANALYSIS = "gpu-runner/analysis";
const ROLES = ["observe", "rules", "whole-frame"];
const TOP_LEVEL = ["artifact-rows.ts", "metrics.ts", "pipeline.ts", "types.ts"];
/** What reading video or running a model takes: the media stage, onnxruntime, child processes, threads. */
/** Pure maths in vision/ the rules may use: box overlap, a frame's detections and their helpers, homographies (and their seeded random draws). */
const IMPURE_FILE = /^gpu-runner\/(media\/|vision\/(?!(boxes|detections|homography|random)\.ts$)|analysis\/(observe|whole-frame)\/)/;
const IMPURE_PACKAGE = /^(onnxruntime-node|node:child_process|node:worker_threads|node:fs)/;
/**
 * The observation passes (scan, rim watch, court views, the whole-frame path…) take their frames from
 * a `FrameSource` (media/frames.ts) handed in, so they are unit-tested on pictures in memory: of
 * media/ they may load only that module, and nothing that starts a process. Only the observer that
 * wires the real-footage passes to a video (observe/real-footage.ts: the ffmpeg source, the scene
 * cuts) and pipeline.ts load a decoder.
 */
const DECODER_FILE = /^gpu-runner\/media\/(?!frames\.ts$)/;
const DECODER_PACKAGE = /^node:child_process$/;
const OBSERVE_WIRING = `${ANALYSIS}/observe/real-footage.ts`;

/**
 * The imports a module loads when it runs: import-graph.ts counts type-only imports too (for the
 * direction of dependencies); purity is about what runs, so `import type` and all-type named
 * imports are left out here.
 */
function valueImports(files: string[]): { internal: Map<string, string[]>; external: Map<string, string[]> } {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const internal = new Map<string, string[]>();
  const external = new Map<string, string[]>();
  for (const file of files) {
    const abs = path.join(ROOT, file);
    const source = ts.createSourceFile(abs, readFileSync(abs, "utf8"), ts.ScriptTarget.Latest);
    const specifiers: string[] = [];
    for (const node of source.statements) {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const typeOnly = clause?.isTypeOnly || (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly));
        if (!typeOnly) specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
        specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
      }
    }
    const own: string[] = [], packages: string[] = [];
    for (const spec of specifiers) {
      const resolved = ts.resolveModuleName(spec, abs, options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved && !resolved.includes("/node_modules/")) own.push(path.relative(ROOT, resolved).split(path.sep).join("/"));
      else packages.push(spec);
    }
    internal.set(file, own);
    external.set(file, packages);
  }
  return { internal, external };
}

/** Every file `start` reaches through `graph`, with the path that reaches it. */
function reach(graph: Map<string, string[]>, start: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? [])
      if (!seen.has(next)) {
        seen.set(next, [...seen.get(file)!, next]);
        queue.push(next);
      }
  }
  return seen;
}

describe("the analysis split by role", () => {
  const { internal, external } = valueImports([...readImportGraph(["gpu-runner", "contract"]).internal.keys()]);

  it("holds only the role folders and the top-level files at its top", () => {
    const entries = readdirSync(path.join(ROOT, ANALYSIS), { withFileTypes: true });
    expect(entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()).toEqual(ROLES);
    expect(entries.filter((e) => e.isFile()).map((e) => e.name).sort()).toEqual(TOP_LEVEL);
  });

  it("rules/ reaches nothing that reads video or runs a model", () => {
    const rules = [...internal.keys()].filter((f) => f.startsWith(`${ANALYSIS}/rules/`));
    expect(rules.length).toBeGreaterThan(10);
    const offences: string[] = [];
    for (const file of rules)
      for (const [reached, via] of reach(internal, file)) {
        if (IMPURE_FILE.test(reached)) offences.push(via.join(" → "));
        for (const pkg of external.get(reached) ?? []) if (IMPURE_PACKAGE.test(pkg)) offences.push(`${via.join(" → ")} → ${pkg}`);
      }
    expect(offences).toEqual([]);
  });

  it("the passes of observe/ and whole-frame/ decode nothing themselves: they take a frame source", () => {
    const passes = [...internal.keys()].filter((f) => (f.startsWith(`${ANALYSIS}/observe/`) || f.startsWith(`${ANALYSIS}/whole-frame/`)) && f !== OBSERVE_WIRING);
    expect(passes).toEqual(expect.arrayContaining([`${ANALYSIS}/observe/scan.ts`, `${ANALYSIS}/observe/rim-watch.ts`, `${ANALYSIS}/observe/court-views.ts`, `${ANALYSIS}/whole-frame/observe-frames.ts`]));
    const offences: string[] = [];
    for (const file of passes)
      for (const [reached, via] of reach(internal, file)) {
        if (DECODER_FILE.test(reached)) offences.push(via.join(" → "));
        for (const pkg of external.get(reached) ?? []) if (DECODER_PACKAGE.test(pkg)) offences.push(`${via.join(" → ")} → ${pkg}`);
      }
    expect(offences).toEqual([]);
  });

  it("the check sees a pass that decodes", () => {
    const graph = new Map([[`${ANALYSIS}/observe/a.ts`, ["gpu-runner/media/frames.ts", "gpu-runner/media/decode.ts"]]]);
    expect([...reach(graph, `${ANALYSIS}/observe/a.ts`).keys()].filter((f) => DECODER_FILE.test(f))).toEqual(["gpu-runner/media/decode.ts"]);
  });

  it("the check sees an impure import", () => {
    const graph = new Map([["gpu-runner/analysis/rules/a.ts", ["gpu-runner/vision/detector.ts"]]]);
    expect([...reach(graph, "gpu-runner/analysis/rules/a.ts").keys()].filter((f) => IMPURE_FILE.test(f))).toEqual(["gpu-runner/vision/detector.ts"]);
    expect(IMPURE_FILE.test("gpu-runner/vision/boxes.ts")).toBe(false);
    expect(IMPURE_FILE.test("gpu-runner/vision/detections.ts")).toBe(false);
  });
});
