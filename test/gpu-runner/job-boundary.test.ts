// The runner's boundary (gpu-runner/job.ts → analyzeGame): one probe, one resolution limit, typed
// options with test settings apart, one points rule. The analysis itself is tested in pipeline.test.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_VIDEO_LONG_SIDE, MAX_VIDEO_SHORT_SIDE } from "../../contract/runner-api";
import { analyzeGame } from "../../gpu-runner/analysis/pipeline";
import { checkResolution, JobFailure } from "../../gpu-runner/job";
import type { VideoInfo } from "../../gpu-runner/media/probe";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const ROOT = path.resolve(import.meta.dirname, "../..");
const runnerFiles = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? runnerFiles(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : [],
  );
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("the runner's boundary", () => {
  it("probes the source once, in the job: nothing under analysis/ calls probe()", () => {
    const probing = runnerFiles("gpu-runner/analysis").filter((f) => /import \{[^}]*\bprobe\b[^}]*\} from "(\.\.\/)+media\/probe/.test(read(f)) || /\bprobe\(/.test(read(f)));
    expect(probing).toEqual([]);
    expect(read("gpu-runner/job.ts")).toMatch(/await analyze\(ctx, source, info\)/);
  });

  it("holds the resolution limit once, in the contract", () => {
    const own = runnerFiles("gpu-runner").filter((f) => /\b(?:MAX_LONG_SIDE|MAX_SHORT_SIDE)\s*=|=\s*1920\b/.test(read(f)));
    expect(own).toEqual([]);
    expect([MAX_VIDEO_LONG_SIDE, MAX_VIDEO_SHORT_SIDE]).toEqual([1920, 1080]);
    expect(() => checkResolution({ width: 1080, height: 1921 })).toThrow(JobFailure);
    expect(() => checkResolution({ width: 1081, height: 1081 })).toThrow("1081×1081");
  });

  it("takes a shot's points from the contract's rule (shotPoints), not a second one", () => {
    const pipeline = read("gpu-runner/analysis/pipeline.ts");
    expect(pipeline).toMatch(/points: shotPoints\(/);
    expect(pipeline).not.toMatch(/\?\s*3\s*:\s*2/);
  });

  it("types analyzeGame's options as the customer's, with test settings apart (checked by tsc)", () => {
    // Never called: `npx tsc --noEmit` checks these lines (an unused @ts-expect-error is an error).
    const typed = (video: VideoInfo) => [
      analyzeGame({ models, videoPath: "x", video, workDir: "w", options: { jerseys: "disabled" }, settings: { detector: "fixture", analysisFps: 5, keyColor: [1, 2, 3] } }),
      // @ts-expect-error a detector is a test setting, not a customer's option
      analyzeGame({ models, videoPath: "x", video, workDir: "w", options: { detector: "fixture" } }),
      // @ts-expect-error option values are the submit schema's
      analyzeGame({ models, videoPath: "x", video, workDir: "w", options: { jerseys: "sometimes" } }),
      // @ts-expect-error the job hands over the probed video
      analyzeGame({ models, videoPath: "x", workDir: "w", options: {} }),
    ];
    expect(typeof typed).toBe("function");
  });
});
