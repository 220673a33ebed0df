// No import cycles: every module's dependencies point one way (docs/architecture.md).
import { describe, expect, it } from "vitest";
import { findCycles, readImportGraph, type ImportCycle } from "./import-graph";

const describeCycle = (c: ImportCycle) => `${c.example.join(" → ")}${c.files.length + 1 > c.example.length ? ` (the cycle's files: ${c.files.join(", ")})` : ""}`;

const SOURCE_ROOTS = ["worker", "gpu-runner", "contract", "drizzle", "scripts", "bench"];

describe("import cycles", () => {
  it("there are none in the sources", () => {
    const { internal } = readImportGraph(SOURCE_ROOTS);
    expect(internal.size).toBeGreaterThan(100); // the graph was read, not an empty walk
    expect(findCycles(internal).map(describeCycle)).toEqual([]);
  });

  it("the checker finds cycles, type-only imports and dynamic imports included", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
      ["f.ts", ["d.ts"]],
    ]);
    expect(findCycles(graph).map(describeCycle).sort()).toEqual(["a.ts → b.ts → c.ts → a.ts", "e.ts → e.ts"]);
    // The reader itself: env.ts's `import type` of the upload Durable Object and job.ts's
    // `await import("./analysis/pipeline")` are edges.
    const { internal } = readImportGraph(["worker", "gpu-runner"]);
    expect(internal.get("worker/env.ts")).toContain("worker/durable-objects/upload-state.ts");
    expect(internal.get("gpu-runner/job.ts")).toContain("gpu-runner/analysis/pipeline.ts");
  });
});
