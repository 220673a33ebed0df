// Real-footage accuracy and speed: runs analyzeGame with the default (trained) detector on every
// clip of ../shared/realclips (read from there at run time; the clips have no licence and are
// never copied into this repository) and compares with the hand-labelled truth in its manifest.
//   npx tsx bench/realclips.ts [--clips name,name] [--out bench/out/realclips.json] [--quiet]
//
// Matching: a detected attempt matches a labelled one when its release (`start_seconds`) is within
// ±1.5 s of the labelled release; labels without a visible release (rim close-ups, the driveway
// clip) are matched on the time the ball reaches the rim instead (the `rim` time of the shot row
// in actions.jsonl against `result_s`). Each label matches at most one attempt, nearest first.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame, lastRunTimings } from "../gpu-runner/analysis/pipeline.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { printTable, runBench } from "./lib.ts";

export const REALCLIPS_DIR = path.resolve(import.meta.dirname, "../../shared/realclips");
export const MATCH_WINDOW_S = 1.5;

export interface ManifestShot { release_s: number | null; result_s: number; made: boolean; confidence: string }
export interface ManifestClip {
  file: string;
  width: number;
  height: number;
  fps: number;
  duration_s: number;
  camera: string;
  view: string;
  setting: string;
  hoop_box: [number, number, number, number] | null;
  shots: ManifestShot[];
  attempts: number;
  makes: number;
  notes: string;
}

export function readManifest(dir = REALCLIPS_DIR): ManifestClip[] {
  return (JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as { clips: ManifestClip[] }).clips;
}

export interface DetectedShot { release: number; rim: number | null; made: boolean }

/** One-to-one matching by time, nearest pairs first (see the header). */
export function matchShots(truth: ManifestShot[], found: DetectedShot[], window = MATCH_WINDOW_S): Array<{ truth: number; found: number }> {
  const pairs: Array<{ truth: number; found: number; d: number }> = [];
  truth.forEach((t, i) =>
    found.forEach((f, j) => {
      const d = t.release_s !== null ? Math.abs(f.release - t.release_s) : f.rim !== null ? Math.abs(f.rim - t.result_s) : Infinity;
      if (d <= window) pairs.push({ truth: i, found: j, d });
    }),
  );
  pairs.sort((a, b) => a.d - b.d);
  const usedT = new Set<number>(), usedF = new Set<number>();
  const out: Array<{ truth: number; found: number }> = [];
  for (const p of pairs) {
    if (usedT.has(p.truth) || usedF.has(p.found)) continue;
    usedT.add(p.truth);
    usedF.add(p.found);
    out.push({ truth: p.truth, found: p.found });
  }
  return out;
}

export interface ClipScore {
  clip: string;
  camera: string;
  view: string;
  outcome: string;
  truthAttempts: number;
  truthMakes: number;
  attempts: number;
  makes: number;
  matched: number;
  madeCorrect: number;
  /** Share of analysed frames whose rim is within one rim width of the labelled hoop box (null: no box). */
  rimRate: number | null;
  /** Share of analysed frames in the labelled flight windows with a ball seen (not interpolated). */
  ballRate: number | null;
  decodeSeconds: number;
  analysisSeconds: number;
}

export function bareDecodeSeconds(file: string): number {
  const t0 = performance.now();
  execFileSync(FFMPEG, ["-v", "error", "-nostdin", "-i", file, "-an", "-f", "null", "-"]);
  return (performance.now() - t0) / 1000;
}

function readJsonl(file: string | null | undefined): Array<Record<string, any>> {
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** Rim and ball detection rates from the run's artifacts, against the clip's labels. */
function detectionRates(clip: ManifestClip, workDir: string): { rimRate: number | null; ballRate: number | null } {
  const hoops = readJsonl(path.join(workDir, "artifacts", "hoops.jsonl"));
  const balls = readJsonl(path.join(workDir, "artifacts", "balls.jsonl"));
  let rimRate: number | null = null;
  if (clip.hoop_box && hoops.length) {
    const [x1, y1, x2, y2] = clip.hoop_box;
    const cx = (x1 + x2) / 2 / clip.width, cy = (y1 + y2) / 2 / clip.height, w = (x2 - x1) / clip.width;
    // A handheld camera moves the hoop: its box only holds for the first half second.
    const rows = clip.camera === "fixed" ? hoops : hoops.filter((r) => r.t <= 0.5);
    const hits = rows.filter((r) => (r.hoops as Array<{ x: number; y: number }>).some((h) => Math.hypot(h.x - cx, (h.y - cy) * (clip.height / clip.width)) <= w));
    rimRate = rows.length ? hits.length / rows.length : 0;
  }
  let ballRate: number | null = null;
  if (clip.shots.length) {
    const times = new Set(hoops.map((r) => r.t as number));
    const seen = new Set(balls.filter((r) => r.track && !r.track.interpolated).map((r) => r.t as number));
    let inWindow = 0, withBall = 0;
    for (const t of times) {
      if (!clip.shots.some((s) => t >= (s.release_s ?? s.result_s - 0.7) && t <= s.result_s)) continue;
      inWindow++;
      if (seen.has(t)) withBall++;
    }
    ballRate = inWindow ? withBall / inWindow : null;
  }
  return { rimRate, ballRate };
}

export async function scoreClip(clip: ManifestClip, workRoot: string, dir = REALCLIPS_DIR): Promise<ClipScore> {
  const file = path.join(dir, clip.file);
  const name = path.basename(clip.file, ".mp4");
  const workDir = path.join(workRoot, name);
  const decodeSeconds = bareDecodeSeconds(file);
  const t0 = performance.now();
  let outcome = "processed";
  let found: DetectedShot[] = [];
  try {
    const result = await analyzeGame({ videoPath: file, workDir, options: {} });
    const rimTimes = new Map(readJsonl(result.artifacts.actions).filter((r) => r.type === "shot").map((r) => [r.shot as string, (r.rim ?? null) as number | null]));
    found = result.shots.map((s) => ({ release: s.start_seconds, rim: rimTimes.get(s.key) ?? null, made: s.made }));
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
    outcome = e.code;
  }
  const analysisSeconds = (performance.now() - t0) / 1000;
  const matches = matchShots(clip.shots, found);
  return {
    clip: name,
    camera: clip.camera,
    view: clip.view,
    outcome,
    truthAttempts: clip.attempts,
    truthMakes: clip.makes,
    attempts: found.length,
    makes: found.filter((f) => f.made).length,
    matched: matches.length,
    madeCorrect: matches.filter((m) => found[m.found].made === clip.shots[m.truth].made).length,
    ...detectionRates(clip, workDir),
    decodeSeconds,
    analysisSeconds,
  };
}

export interface Summary {
  precision: number;
  recall: number;
  f1: number;
  madeAccuracy: number;
  falseAttemptsOnNoShotClips: number;
  withinOneShare: number;
  visibleHoopFailures: string[];
  videoSeconds: number;
  analysisSeconds: number;
  decodeSeconds: number;
}

export function summarize(scores: ClipScore[], clips: ManifestClip[]): Summary {
  const sum = (f: (s: ClipScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  const truth = sum((s) => s.truthAttempts), found = sum((s) => s.attempts), matched = sum((s) => s.matched);
  const precision = found ? matched / found : 1, recall = truth ? matched / truth : 1;
  return {
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    madeAccuracy: matched ? sum((s) => s.madeCorrect) / matched : 0,
    falseAttemptsOnNoShotClips: sum((s) => (s.truthAttempts === 0 ? s.attempts : 0)),
    withinOneShare: scores.filter((s) => Math.abs(s.attempts - s.truthAttempts) <= 1 && Math.abs(s.makes - s.truthMakes) <= 1).length / scores.length,
    // A clip whose labels name an attempt has a visible hoop; it must come back processed.
    visibleHoopFailures: scores.filter((s) => s.truthAttempts > 0 && s.outcome !== "processed").map((s) => `${s.clip} (${s.outcome})`),
    videoSeconds: clips.reduce((a, c) => a + c.duration_s, 0),
    analysisSeconds: sum((s) => s.analysisSeconds),
    decodeSeconds: sum((s) => s.decodeSeconds),
  };
}

/**
 * A 60 s 1280×720 30 fps file stitched at run time from the landscape clips (scaled and padded,
 * looped until a minute is filled), for the speed target: real-footage analysis of 60 s of 720p30
 * in at most 60 s on the 2-core machine. Written under bench/out (never committed).
 */
export function stitchSpeedFile(clips: ManifestClip[], out: string, dir = REALCLIPS_DIR): string {
  if (existsSync(out)) return out;
  const landscape = clips.filter((c) => c.width > c.height && c.width >= 640);
  const inputs: string[] = [];
  let total = 0;
  while (total < 60) for (const c of landscape) if (total < 60) { inputs.push(path.join(dir, c.file)); total += c.duration_s; }
  const filters = inputs.map((_, i) => `[${i}:v]scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,fps=30,setsar=1,format=yuv420p[v${i}]`);
  const concat = `${inputs.map((_, i) => `[v${i}]`).join("")}concat=n=${inputs.length}:v=1:a=0,trim=duration=60[out]`;
  execFileSync(FFMPEG, ["-v", "error", "-y", ...inputs.flatMap((f) => ["-i", f]), "-filter_complex", [...filters, concat].join(";"), "-map", "[out]", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", `${out}.part.mp4`]);
  // Renamed only when whole: a run stopped mid-encode must not leave a file the next run trusts.
  renameSync(`${out}.part.mp4`, out);
  return out;
}

const SPEED_FILE = path.resolve("bench/out/realclips-60s-720p30.mp4");

/** One timed analysis of the speed file in this process (its ORT thread count comes from HOOPS_ORT_THREADS). */
async function timeSpeedFile(): Promise<Record<string, number>> {
  const d1 = bareDecodeSeconds(SPEED_FILE);
  const t0 = performance.now();
  await analyzeGame({ videoPath: SPEED_FILE, workDir: path.resolve("bench/out/realclips-work/speed-60s"), options: {} }).catch((e) => {
    if (!(e instanceof AnalysisError)) throw e;
  });
  const analysis = (performance.now() - t0) / 1000;
  const d2 = bareDecodeSeconds(SPEED_FILE);
  return { decode: (d1 + d2) / 2, analysis, scanS: lastRunTimings.scanMs / 1000, watchS: lastRunTimings.watchMs / 1000 };
}

/**
 * Speed: 60 s of 720p30 stitched from the clips, analysed with the model on its own thread (the
 * default) and on the main thread, each with one and with two onnxruntime threads (a fresh process
 * per row, since the model session is opened once per process), two rounds in alternating order;
 * bare decode timed before and after each analysis.
 */
function speedRuns(): Record<string, Array<Record<string, number>>> {
  stitchSpeedFile(readManifest(), SPEED_FILE);
  const configs = [
    { key: "own thread, 1", thread: "on", ort: "1" },
    { key: "own thread, 2", thread: "on", ort: "2" },
    { key: "main thread, 1", thread: "off", ort: "1" },
    { key: "main thread, 2", thread: "off", ort: "2" },
  ];
  const runs: Record<string, Array<Record<string, number>>> = Object.fromEntries(configs.map((c) => [c.key, []]));
  for (const order of [configs, [...configs].reverse()])
    for (const c of order) {
      const out = execFileSync(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "realclips.ts"), "--speed-child"], {
        env: { ...process.env, HOOPS_ORT_THREADS: c.ort, HOOPS_MODEL_THREAD: c.thread },
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 1 << 20,
      });
      runs[c.key].push(JSON.parse(out.toString().trim().split("\n").at(-1)!));
    }
  printTable(
    Object.entries(runs).flatMap(([key, rs]) =>
      rs.map((r, i) => ({
        "model on, ORT threads": key,
        round: i + 1,
        "bare decode s": r.decode.toFixed(2),
        "analysis s": r.analysis.toFixed(2),
        "analysis / video (target ≤ 1)": `${(r.analysis / 60).toFixed(2)}×`,
        "analysis / decode": `${(r.analysis / r.decode).toFixed(1)}×`,
        "scan s / watch s": `${r.scanS.toFixed(1)} / ${r.watchS.toFixed(1)}`,
      })),
    ),
  );
  return runs;
}

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)} %`);

async function main() {
  const args = process.argv.slice(2);
  const arg = (k: string) => {
    const i = args.indexOf(`--${k}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!existsSync(path.join(REALCLIPS_DIR, "manifest.json"))) {
    console.error(`no real clips at ${REALCLIPS_DIR} (the shared folder beside the checkout)`);
    process.exit(2);
  }
  if (args.includes("--speed-child")) {
    // Last line of stdout (the runner's modules log to stdout too).
    process.stdout.write(`\n${JSON.stringify(await timeSpeedFile())}\n`);
    return;
  }
  const only = arg("clips")?.split(",");
  const clips = readManifest().filter((c) => !only || only.some((o) => c.file.includes(o)));
  const workRoot = path.resolve("bench/out/realclips-work");
  mkdirSync(workRoot, { recursive: true });
  const scores: ClipScore[] = [];
  for (const clip of clips) {
    const s = await scoreClip(clip, workRoot);
    scores.push(s);
    if (!args.includes("--quiet"))
      console.error(`${s.clip}: ${s.outcome}, attempts ${s.attempts}/${s.truthAttempts}, makes ${s.makes}/${s.truthMakes}, matched ${s.matched}, made ok ${s.madeCorrect} (${s.analysisSeconds.toFixed(1)} s; ${JSON.stringify(lastRunTimings)})`);
  }
  printTable(
      scores.map((s) => ({
        clip: s.clip,
        camera: `${s.camera} / ${s.view}`,
        outcome: s.outcome,
        "attempts found / true": `${s.attempts} / ${s.truthAttempts}`,
        "makes found / true": `${s.makes} / ${s.truthMakes}`,
        matched: s.matched,
        "made/missed right": s.matched ? `${s.madeCorrect} / ${s.matched}` : "–",
        "rim found": pct(s.rimRate),
        "ball in flight": pct(s.ballRate),
        "analysis / decode": `${(s.analysisSeconds / Math.max(s.decodeSeconds, 1e-3)).toFixed(1)}×`,
      })),
  );
  const sm = summarize(scores, clips);
  printTable([
      { measure: "attempt precision / recall", value: `${pct(sm.precision)} / ${pct(sm.recall)}`, target: "" },
      { measure: "attempt F1", value: pct(sm.f1), target: "≥ 85 %" },
      { measure: "made/missed on matched attempts", value: pct(sm.madeAccuracy), target: "≥ 85 %" },
      { measure: "attempts on no-shot clips", value: String(sm.falseAttemptsOnNoShotClips), target: "0" },
      { measure: "clips with attempts and makes within ±1", value: pct(sm.withinOneShare), target: "≥ 80 %" },
      { measure: "clips with a visible hoop that failed", value: sm.visibleHoopFailures.join(", ") || "none", target: "none" },
      { measure: "analysis time / video length", value: `${(sm.analysisSeconds / sm.videoSeconds).toFixed(2)}×`, target: "" },
      { measure: "analysis time / bare decode", value: `${(sm.analysisSeconds / sm.decodeSeconds).toFixed(1)}×`, target: "" },
  ]);
  const speed = args.includes("--no-speed") ? null : speedRuns();
  const out = arg("out") ?? "bench/out/realclips.json";
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ scores, summary: sm, speed }, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) runBench(main);
