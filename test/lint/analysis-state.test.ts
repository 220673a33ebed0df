// The analysis keeps no state between runs and reads no environment (issue 24, point 3): models and
// settings are handed in (vision/models.ts, AnalysisSettings), timings and evidence come back on the
// run (AnalysisRun.diagnostics). A module-level `let` or a cache filled at run time would make one
// job's answer depend on the jobs before it in the same process.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

const ANALYSIS_DIR = "gpu-runner/analysis";

function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(path.join(ROOT, dir, f), "utf8") }));
}

/** Top-level statements that hold state across calls: `let`/`var`, and containers made at load time. */
function moduleState(text: string): string[] {
  return text.split("\n").filter((line) => /^(export )?(let|var) /.test(line) || /^(export )?const \w+(: [^=]+)? = new (Map|Set|WeakMap|Array)\b/.test(line) || /^(export )?const \w+: \w+\[\] = \[\];/.test(line));
}

describe("the analysis holds no module-level state", () => {
  const files = sources(ANALYSIS_DIR);

  it("finds the analysis sources", () => {
    expect(files.map((f) => f.file)).toContain(`${ANALYSIS_DIR}/pipeline.ts`);
  });

  it("no stage reads process.env (the runner's settings arrive through vision/models.ts and AnalysisSettings)", () => {
    expect(files.filter((f) => /process\.env/.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it("no module keeps mutable state at the top level", () => {
    expect(files.flatMap((f) => moduleState(f.text).map((line) => `${f.file}: ${line.trim()}`))).toEqual([]);
  });

  it("the rule sees what it forbids", () => {
    expect(moduleState("let cache = null;\nexport const lastRun: Run[] = [];\nconst models = new Map<string, number>();\nconst LIMIT = 3;")).toHaveLength(3);
  });
});
