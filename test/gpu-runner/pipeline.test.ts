import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AnalysisError, analyzeGame, wantsJerseyNumbers, type AnalysisRun } from "../../gpu-runner/analysis/pipeline.ts";
import { SYNTHETIC_FIXTURE } from "../../gpu-runner/vision/detector.ts";
import { FAILURE_MESSAGES } from "../../contract/failure-messages.ts";
import { JobFailure, probeSource } from "../../gpu-runner/job.ts";
import type { AnalysisResult } from "../../gpu-runner/analysis/types.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { runTool } from "../../gpu-runner/media/run.ts";
import { renderHighlights } from "../../gpu-runner/outputs/highlights.ts";
import type { GroundTruth } from "../../scripts/synth/generate.ts";
import { CACHE_DIR, syntheticGame } from "./fixtures.ts";
import { PALETTE } from "../../scripts/synth/palette.ts";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const WORK = path.join(CACHE_DIR, "work");

describe("analyzeGame on a generated game", () => {
  let video: string, gt: GroundTruth, result: AnalysisRun;
  const stages: Array<[string, number]> = [];

  beforeAll(async () => {
    ({ video, gt } = await syntheticGame({ seed: 21, seconds: 24, camera: "wide", size: "720p" }));
    result = await analyzeGame({ models, videoPath: video, video: await probe(video), workDir: path.join(WORK, "s21"), options: { jerseys: "auto" }, settings: { detector: SYNTHETIC_FIXTURE }, onProgress: (s, p) => stages.push([s, p]) });
  });

  it("finds every ground-truth shot with the right result and points", () => {
    expect(gt.shots.length).toBeGreaterThanOrEqual(2);
    expect(result.shots).toHaveLength(gt.shots.length);
    gt.shots.forEach((g, i) => {
      const s = result.shots[i];
      expect(Math.abs(s.start_seconds - g.release_seconds)).toBeLessThan(0.7);
      expect(s.made).toBe(g.made);
      expect(s.points).toBe(g.points);
      expect(s.is_free_throw).toBe(g.is_free_throw);
    });
    expect(result.video).toMatchObject({ width: 1280, height: 720 });
    expect(result.run_version).toBe(2);
    expect(stages.at(-1)).toEqual(["analyze", 100]);
  });

  it("returns its own timings and shooter evidence on the run, not in module state (issue 24, point 3)", async () => {
    expect(result.diagnostics.timings.frames).toBeGreaterThan(0);
    expect(result.diagnostics.timings.postMs).toBeGreaterThan(0);
    expect(result.diagnostics.shooterEvidence.map((e) => e.release_s.toFixed(3))).toEqual(result.shots.map((s) => s.start_seconds.toFixed(3)));
    // A second, failing run on the same models leaves the first run's diagnostics as they were.
    const before = JSON.stringify(result.diagnostics);
    const blue = path.join(CACHE_DIR, "blue-diagnostics.mp4");
    await runTool(FFMPEG, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3050a0:s=320x180:r=30", "-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", blue]);
    const failed = await analyzeGame({ models, videoPath: blue, video: await probe(blue), workDir: path.join(WORK, "blue-diagnostics"), options: {}, settings: { detector: SYNTHETIC_FIXTURE } }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AnalysisError);
    expect((failed as AnalysisError).code).toBe("no_hoops");
    expect((failed as AnalysisError).diagnostics?.timings.frames).toBeGreaterThan(0);
    expect(JSON.stringify(result.diagnostics)).toBe(before);
  });

  it("places shots on the court and in the image", () => {
    const errorsM: number[] = [];
    gt.shots.forEach((g, i) => {
      const loc = result.shots[i].location;
      expect(loc.hoop_image_normed).not.toBeNull();
      expect(Math.hypot(loc.hoop_image_normed![0] - g.hoop_image[0], loc.hoop_image_normed![1] - g.hoop_image[1])).toBeLessThan(0.02);
      expect(loc.shot_world_normed).not.toBeNull();
      const w = loc.shot_world_normed!;
      // Normalised half-court: x spans 15 m, y 14 m.
      errorsM.push(Math.hypot((w[0] - g.court_position_normed[0]) * 15, (w[1] - g.court_position_normed[1]) * 14));
      for (const v of [...w, ...(loc.shot_image_normed ?? [])]) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1);
    });
    // Most spots land within 1.2 m. In one of this game's shots the ball is hidden behind the
    // defender until one analysed frame before the rise; a first sighting after a gap is taken to
    // be already in the air (docs/analysis.md, stage 8), so at 10 analysed frames a second that
    // spot lands ~4 m off (at 15 it happened to be seen twice and landed 0.6 m off): bounded, not exact.
    expect(errorsM.filter((e) => e <= 1.2).length).toBeGreaterThanOrEqual(gt.shots.length - 1);
    for (const e of errorsM) expect(e).toBeLessThan(5);
  });

  it("keeps shots, highlights, players and box scores consistent", () => {
    const keys = new Set(result.players.map((p) => p.key));
    for (const s of result.shots) {
      for (const k of Object.values(s.players)) if (k) expect(keys.has(k)).toBe(true);
      const h = result.highlights.find((x) => x.key === s.highlight)!;
      expect(h.shot).toBe(s.key);
      expect(h.shot_index).toBe(s.index);
      expect(h.player).toBe(s.players.scorer);
      expect(h.is_lowlight).toBe(!s.made);
      expect(h.start_seconds).toBeLessThanOrEqual(s.start_seconds);
      expect(h.length_seconds).toBeGreaterThan(2);
      expect(s.excitement_score).toBeGreaterThan(0);
    }
    for (const p of result.players) {
      const mine = result.shots.filter((s) => s.players.scorer === p.key);
      expect(p.stats.points).toBe(mine.reduce((a, s) => a + s.points, 0));
      expect(p.stats.fg_2pt_att + p.stats.fg_3pt_att + p.stats.ft_att).toBe(mine.length);
      expect(p.stats.assist).toBe(result.shots.filter((s) => s.players.assister === p.key).length);
      expect(p.stats.rebound).toBe(result.shots.filter((s) => s.players.rebounder === p.key).length);
      expect([0, 1]).toContain(p.team_id);
    }
    expect(result.totals.points).toBe(result.shots.reduce((a, s) => a + s.points, 0));
    expect(new Set(result.players.map((p) => p.team_id)).size).toBe(2);
  });

  it("reads jersey numbers and uses them to tell players apart", () => {
    const gtNumbers = new Set(gt.players.map((p) => `${p.team}:${p.jersey}`));
    const numbered = result.players.filter((p) => p.jersey !== null);
    expect(numbered.length).toBeGreaterThanOrEqual(Math.ceil(gt.players.length / 2));
    // Our team ids are arbitrary labels: check numbers against the better of the two pairings.
    const hits = (flip: boolean) => numbered.filter((p) => gtNumbers.has(`${flip ? 1 - p.team_id! : p.team_id}:${p.jersey}`)).length;
    expect(Math.max(hits(false), hits(true))).toBeGreaterThanOrEqual(Math.ceil(gt.players.length / 2));
    // One player per team and number.
    expect(new Set(numbered.map((p) => `${p.team_id}:${p.jersey}`)).size).toBe(numbered.length);
  });

  it("writes the four JSONL artifacts", () => {
    for (const name of ["actions", "balls", "hoops", "clusters"] as const) {
      const file = result.artifacts[name];
      expect(existsSync(file)).toBe(true);
      const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(rows.length).toBeGreaterThan(0);
    }
    const actions = readFileSync(result.artifacts.actions, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(actions.filter((a) => a.type === "shot")).toHaveLength(result.shots.length);
    const clusters = readFileSync(result.artifacts.clusters, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(clusters[0].type).toBe("teams");
  });

  it("renders a highlight's renditions and previews without upscaling", async () => {
    const h = result.highlights[0];
    const [r] = await renderHighlights(video, result, path.join(WORK, "s21"), { only: [h.key], preset: "ultrafast" });
    expect(r.key).toBe(h.key);
    expect(r.files["1080p"]).toBeNull();
    for (const name of ["default", "horizontal", "720p", "480p", "360p", "240p", "144p"] as const) expect(existsSync(r.files[name]!)).toBe(true);
    const vertical = await probe(r.files.default!);
    expect(vertical.height).toBe(720);
    expect(vertical.width).toBeLessThan(vertical.height);
    expect(vertical.durationSeconds).toBeCloseTo(h.length_seconds, 0);
    expect(await probe(r.files["144p"]!)).toMatchObject({ height: 144, width: 256 });
    expect(existsSync(r.preview.default!)).toBe(true);
    expect(existsSync(r.preview.horizontal!)).toBe(true);
  });
});

describe("jersey reading", () => {
  it("follows the submit options: enabled always, disabled never, auto when players wear numbered jerseys", () => {
    expect(wantsJerseyNumbers({})).toBe(true);
    expect(wantsJerseyNumbers({ jerseys: "auto", has_jerseys: true })).toBe(true);
    expect(wantsJerseyNumbers({ jerseys: "auto", has_jerseys: false })).toBe(false);
    expect(wantsJerseyNumbers({ jerseys: "enabled", has_jerseys: false })).toBe(true);
    expect(wantsJerseyNumbers({ jerseys: "disabled", has_jerseys: true })).toBe(false);
  });
});

describe("analyzeGame failures", () => {
  async function lavfi(name: string, spec: string, seconds: number) {
    await mkdir(CACHE_DIR, { recursive: true });
    const file = path.join(CACHE_DIR, name);
    if (!existsSync(file)) await runTool(FFMPEG, ["-v", "error", "-y", "-f", "lavfi", "-i", spec, "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", file]);
    return file;
  }
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(AnalysisError);
      return (e as AnalysisError).code;
    }
  };

  // The source is probed once, by the job (gpu-runner/job.ts), before analysis: its failures are the
  // job's, with the contract's sentences; analyzeGame works from the VideoInfo it is handed.
  const jobCode = async (p: Promise<unknown>) => {
    try {
      await p;
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(JobFailure);
      return { code: (e as JobFailure).code, message: (e as JobFailure).message };
    }
  };

  it("source_invalid for a file that is not a video, with the contract's sentence", async () => {
    await mkdir(CACHE_DIR, { recursive: true });
    const file = path.join(CACHE_DIR, "text.mp4");
    await writeFile(file, "not a video");
    expect(await jobCode(probeSource(file, new AbortController().signal))).toEqual({ code: "source_invalid", message: FAILURE_MESSAGES.source_invalid });
  });

  it("video_too_large above 1920x1080, naming the video's size", async () => {
    const file = await lavfi("oversize.mp4", "color=c=gray:s=2560x1440:r=30", 1);
    expect(await jobCode(probeSource(file, new AbortController().signal))).toEqual({
      code: "video_too_large",
      message: "The video is 2560×1440; the limit is 1920×1080 in either orientation.",
    });
  });

  it("no_hoops when no hoop is ever seen", async () => {
    const file = await lavfi("blue.mp4", "color=c=0x3050a0:s=640x360:r=30", 2);
    expect(await code(analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(WORK, "blue"), options: {}, settings: { detector: SYNTHETIC_FIXTURE } }))).toBe("no_hoops");
  });

  it("no_court when a hoop is in view but no court: no player and no ball, ever", async () => {
    // A rim-coloured bar on a plain wall: the fixture detector sees a hoop and nothing else.
    const [r, g, b] = PALETTE.rim.map((v) => v.toString(16).padStart(2, "0"));
    const file = await lavfi("hoop-only.mp4", `color=c=0x808080:s=640x360:r=30,drawbox=x=300:y=100:w=40:h=6:color=0x${r}${g}${b}:t=fill`, 2);
    expect(await code(analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(WORK, "hooponly"), options: {}, settings: { detector: SYNTHETIC_FIXTURE } }))).toBe("no_court");
  });

  it("a court that cannot be calibrated still gives every shot, without world coordinates", async () => {
    // A key colour that is not on this court: no homography, so no spot on the court, but the shots,
    // makes and points from the estimated distance remain (docs/analysis.md; this game has no free throw).
    const { video, gt } = await syntheticGame({ seed: 21, seconds: 24, camera: "wide", size: "720p" });
    const r = await analyzeGame({ models, videoPath: video, video: await probe(video), workDir: path.join(WORK, "nocourt"), options: {}, settings: { keyColor: [0, 255, 0], detector: SYNTHETIC_FIXTURE } });
    expect(r.shots).toHaveLength(gt.shots.length);
    r.shots.forEach((s, i) => {
      expect(s.made).toBe(gt.shots[i].made);
      expect(s.location.shot_world_normed).toBeNull();
      expect(s.location.hoop_image_normed).not.toBeNull();
      expect(s.is_free_throw).toBe(false);
      expect(s.points).toBe(s.made ? (s.is_three_point ? 3 : 2) : 0);
    });
  });

  it("no_shots when nobody shoots", async () => {
    const { video, gt } = await syntheticGame({ seed: 22, seconds: 4, camera: "side", size: "720p" });
    expect(gt.shots).toHaveLength(0);
    expect(await code(analyzeGame({ models, videoPath: video, video: await probe(video), workDir: path.join(WORK, "noshots"), options: {}, settings: { detector: SYNTHETIC_FIXTURE } }))).toBe("no_shots");
  });
});
