// The same footage gives the same shots whatever surrounds it (issue: results that do not depend on
// length). Tuning clips from ../shared/realclips are brought to one format (so they can be joined
// without re-encoding: the frames inside a joined file are exactly those of the segment alone), each
// analysed alone, then several in a row and one repeated; every segment's shots must be its
// alone-shots moved by its offset: releases within 0.2 s, the same made/missed calls.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REALCLIPS_DIR, tuningClips } from "../../bench/realclips-manifest.ts";
import { AnalysisError, analyzeGame } from "../../gpu-runner/analysis/pipeline.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { sameShots, SHOT_METRICS_DEFAULTS } from "../../gpu-runner/analysis/metrics.ts";
import { CACHE_DIR } from "./fixtures.ts";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const WORK = path.join(CACHE_DIR, "length");
/** Segments are cut to a whole number of scan samples (6 source frames at 30 fps = 0.2 s), so the analysis grid lines up at every join. */
const FPS = 30;
const FRAMES_PER_SAMPLE = 6;
const RELEASE_TOLERANCE_S = SHOT_METRICS_DEFAULTS.SAME_RELEASE_S;
// Tuning clips with at least one shot each, different scenes and cameras.
const CLIPS = ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "lreithmayr_gym_side_1shot"];

interface Shot { start: number; made: boolean }
interface Segment { name: string; file: string; seconds: number }

function normalise(name: string): Segment {
  const clip = tuningClips().find((c) => c.file.includes(name));
  if (!clip) throw new Error(`${name} is not a tuning clip of ${REALCLIPS_DIR}`);
  const frames = Math.floor((clip.duration_s * FPS) / FRAMES_PER_SAMPLE) * FRAMES_PER_SAMPLE - FRAMES_PER_SAMPLE;
  const file = path.join(WORK, `${name}.mp4`);
  if (!existsSync(file))
    execFileSync(FFMPEG, [
      "-v", "error", "-y", "-i", path.join(REALCLIPS_DIR, clip.file),
      "-vf", `fps=${FPS},scale=960:540:force_original_aspect_ratio=decrease,pad=960:540:(ow-iw)/2:(oh-ih)/2,setsar=1`,
      "-frames:v", String(frames), "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-g", String(FPS), "-bf", "0", "-video_track_timescale", "15360", file,
    ]);
  return { name, file, seconds: frames / FPS };
}

/** Joins segments without re-encoding (the concat demuxer copies their packets). */
function join(segments: Segment[], out: string): string {
  const list = `${out}.txt`;
  writeFileSync(list, segments.map((s) => `file '${s.file}'`).join("\n"));
  execFileSync(FFMPEG, ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", out]);
  return out;
}

async function shotsOf(file: string, work: string): Promise<Shot[]> {
  try {
    const r = await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(WORK, work), options: {} });
    return r.shots.map((s) => ({ start: s.start_seconds, made: s.made }));
  } catch (e) {
    if (e instanceof AnalysisError && e.code === "no_shots") return [];
    throw e;
  }
}

function expectSameShots(inContext: Shot[], alone: Shot[], offset: number, seconds: number, label: string) {
  const inside = inContext.filter((s) => s.start >= offset - RELEASE_TOLERANCE_S && s.start < offset + seconds - RELEASE_TOLERANCE_S);
  expect(sameShots(inside, alone, offset), `${label}: ${JSON.stringify(inside)} against alone ${JSON.stringify(alone)} moved by ${offset} s`).toBe(true);
}

describe("results that do not depend on length", () => {
  const segments: Segment[] = [];
  const alone = new Map<string, Shot[]>();

  beforeAll(async () => {
    await mkdir(WORK, { recursive: true });
    for (const name of CLIPS) segments.push(normalise(name));
    for (const s of segments) alone.set(s.name, await shotsOf(s.file, `alone-${s.name}`));
  }, 600_000);

  it("each clip alone finds its labelled shots (the comparison means something)", () => {
    for (const s of segments) expect(alone.get(s.name)!.length, s.name).toBeGreaterThan(0);
  });

  it("clips in a row: each segment's shots are its shots alone", async () => {
    const shots = await shotsOf(join(segments, path.join(WORK, "in-a-row.mp4")), "in-a-row");
    let offset = 0;
    for (const s of segments) {
      expectSameShots(shots, alone.get(s.name)!, offset, s.seconds, s.name);
      offset += s.seconds;
    }
    expect(shots).toHaveLength(segments.reduce((a, s) => a + alone.get(s.name)!.length, 0));
  }, 600_000);

  it("one clip repeated: every copy gives the clip's shots", async () => {
    const s = segments[0];
    const copies = 3;
    const shots = await shotsOf(join(Array(copies).fill(s), path.join(WORK, "repeated.mp4")), "repeated");
    for (let i = 0; i < copies; i++) expectSameShots(shots, alone.get(s.name)!, i * s.seconds, s.seconds, `${s.name}, copy ${i + 1}`);
    expect(shots).toHaveLength(copies * alone.get(s.name)!.length);
  }, 600_000);
});
