// Real-footage accuracy and speed: runs analyzeGame with the default (trained) detector on every
// clip of ../shared/realclips (read from there at run time; the clips have no licence and are
// never copied into this repository) and compares with the hand-labelled truth in its manifest.
//   npx tsx bench/realclips.ts [--split tuning|held_out] [--clips name,name] [--no-speed]
//                              [--set attempts.NEAR_RIM_WIDTHS=1.5 …] [--out bench/out/realclips.json] [--quiet]
// `--set` overrides any named setting of the real-footage stages for a sweep (see parseSettingArgs);
// sweep on `--split tuning` only: the held-out part is measured, never tuned on.
//
// Every clip has a `split` in the manifest: `tuning` (develop and tune on these) and `held_out`
// (sources no tuning clip comes from: measured here, never tuned on). The tables report both parts
// clip by clip and side by side, plus the original 18 clips earlier figures were measured on.
// Matching and scores are gpu-runner/analysis/metrics.ts (release within 1.5 s, else the rim time).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clipBootstrapIntervals, clipShotCounts, exactlyRight, matchShots, scoreShots, type ClipShotCounts, type FoundShot, type LabelledShot, type ScoreInterval, type ShotScores } from "../gpu-runner/analysis/metrics.ts";
import { ATTEMPT_DEFAULTS } from "../gpu-runner/analysis/rules/attempts.ts";
import { RELEASE_DEFAULTS } from "../gpu-runner/analysis/rules/flight.ts";
import { COURT_FREE_FREE_THROW_DEFAULTS } from "../gpu-runner/analysis/rules/free-throw.ts";
import { AnalysisError, analyzeGame, analyzeObservations, observeVideo, type AnalysisDiagnostics, type AnalysisRun, type AnalysisSettings, type AnalyzeInput } from "../gpu-runner/analysis/pipeline.ts";
import type { Observations } from "../gpu-runner/analysis/observe/observations.ts";
import { assembleRealObservations, REAL_FOOTAGE_DEFAULTS, realFootageSettings, type RawRealObservations, type RealFootageSettings } from "../gpu-runner/analysis/observe/real-footage.ts";
import type { CourtView, PictureMotion } from "../gpu-runner/analysis/rules/court-view.ts";
import { observeCourtViews } from "../gpu-runner/analysis/observe/court-views.ts";
import { DEFAULT_SUBMIT_OPTIONS } from "../contract/job-options.ts";
import { videoFrames } from "../gpu-runner/media/decode.ts";
import { probe, type VideoInfo } from "../gpu-runner/media/probe.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { chooseClips, clipName, ORIGINAL_SET_SIZE, readManifest, REALCLIPS_DIR, SPLITS, type ClipSplit, type ManifestClip } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

export interface ClipScore extends ClipShotCounts {
  clip: string;
  split: ClipSplit;
  /** Among the manifest's first 18 clips (the set earlier figures were measured on). */
  original: boolean;
  camera: string;
  view: string;
  outcome: string;
  /** The shots found (release and rim time in seconds, made), as matched against the labels. */
  shots: FoundShot[];
  /** Found shots called free throws, and the clip's true free throws (bench/free-throws.json; none on a clip not listed there). */
  freeThrowsCalled: number;
  freeThrowsTrue: number;
  /** Each matched attempt labelled 2 or 3 by eye (bench/two-or-three.json): the label, the call, and whether the call was made on a registered court. */
  twoOrThree: TwoOrThreeCheck[];
  /** Share of analysed frames whose rim is within one rim width of the labelled hoop box (null: no box). */
  rimRate: number | null;
  /** Share of analysed frames in the labelled flight windows with a ball seen (not interpolated). */
  ballRate: number | null;
  videoSeconds: number;
  decodeSeconds: number;
  analysisSeconds: number;
}

export interface TwoOrThreeCheck {
  release_s: number;
  /** Taken from behind the three-point line: as labelled by eye, and as called. */
  truth: boolean;
  found: boolean;
  /** The call was made on a registered court (a shot chart position), not by the court-free estimate. */
  onCourt: boolean;
}

/** The attempts labelled by eye as taken from inside or behind the three-point line (bench/two-or-three.json), by clip: the manifest does not say. */
export function twoOrThreeTruth(): Map<string, Array<{ release_s: number; three: boolean }>> {
  const data = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "two-or-three.json"), "utf8")) as { attempts: Array<{ clip: string; release_s: number; three: boolean }> };
  const out = new Map<string, Array<{ release_s: number; three: boolean }>>();
  for (const a of data.attempts) out.set(a.clip, [...(out.get(a.clip) ?? []), { release_s: a.release_s, three: a.three }]);
  return out;
}

/** The matched attempts of a clip labelled 2 or 3, against what the analysis called them (in release order). */
export function checkTwoOrThree(truth: LabelledShot[], found: Array<FoundShot & { three: boolean; onCourt: boolean }>, labels: Array<{ release_s: number; three: boolean }>): TwoOrThreeCheck[] {
  return matchShots(truth, found)
    .flatMap((m) => {
      const release = truth[m.truth].release_s;
      const label = release === null ? undefined : labels.find((l) => Math.abs(l.release_s - release) < 1e-6);
      return label ? [{ release_s: label.release_s, truth: label.three, found: found[m.found].three, onCourt: found[m.found].onCourt }] : [];
    })
    .sort((a, b) => a.release_s - b.release_s);
}

/** The clips whose attempts include free throws, and how many (bench/free-throws.json): the manifest does not say. */
export function trueFreeThrows(): Map<string, number> {
  const data = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "free-throws.json"), "utf8")) as { clips: Array<{ clip: string; free_throws: number }> };
  return new Map(data.clips.map((c) => [c.clip, c.free_throws]));
}

/** The bench's own truth files, read once for every clip scored. */
const FREE_THROW_TRUTH = trueFreeThrows();
const TWO_OR_THREE_TRUTH = twoOrThreeTruth();

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

/**
 * `--set group.NAME=value` arguments as analysis settings: `attempts.NEAR_RIM_WIDTHS=1.5` (the attempt
 * rules), `release.OFF_FLIGHT_BALLS=0.8` (the release rule), `freeThrow.PAUSE_S=1.5` (the free-throw rule without a registered court), `realFootage.watch.CALM_EVERY_FRAMES=1` (any real-footage stage's settings), `analysisFps=10`.
 * Values are JSON (numbers, arrays); unknown names are refused rather than ignored.
 */
export function parseSettingArgs(sets: string[]): AnalysisSettings {
  const out: Record<string, any> = {};
  for (const s of sets) {
    const eq = s.indexOf("=");
    if (eq < 0) throw new Error(`--set ${s}: expected name=value`);
    const keys = s.slice(0, eq).split(".");
    const value = JSON.parse(s.slice(eq + 1));
    let defaults: any = { attempts: ATTEMPT_DEFAULTS, release: RELEASE_DEFAULTS, freeThrow: COURT_FREE_FREE_THROW_DEFAULTS, realFootage: REAL_FOOTAGE_DEFAULTS, analysisFps: 0 };
    let node = out;
    keys.forEach((k, i) => {
      if (defaults === undefined || !(k in defaults)) throw new Error(`--set ${s}: unknown setting ${keys.slice(0, i + 1).join(".")}`);
      defaults = defaults[k];
      if (i === keys.length - 1) node[k] = value;
      else node = node[k] ??= {};
    });
  }
  return out as AnalysisSettings;
}

/**
 * The real-footage settings groups that act after the observation (assembleRealObservations and the
 * rules): a sweep of these replays kept observations instead of running the model again.
 */
const REPLAYED_GROUPS = new Set(["balls", "rimPlay", "rimSeen"]);

/** A change made to kept observations before they are replayed (bench/stability.ts). */
export type PerturbObservations = (raw: RawRealObservations) => RawRealObservations;

/** The shape of kept observations (RawRealObservations): raised when it changes, so old files are never replayed. */
const KEPT_OBSERVATIONS_VERSION = 2;

/** The model file's hash, read once per process (8 MB; a sweep asks for it on every clip of every combination). */
let modelDigest: string | null = null;

/** Where a clip's kept observations go: one folder per format, model file and observation settings. */
function observationFile(cacheDir: string, clip: string, settings: AnalysisSettings, s: RealFootageSettings): string {
  const observed = Object.entries(s).filter(([k]) => !REPLAYED_GROUPS.has(k));
  modelDigest ??= createHash("sha256").update(readFileSync(models.centerNetPath)).digest("hex");
  const key = createHash("sha256")
    .update(modelDigest)
    .update(JSON.stringify({ version: KEPT_OBSERVATIONS_VERSION, observed, analysisFps: settings.analysisFps ?? null, detector: settings.detector ?? null }))
    .digest("hex")
    .slice(0, 16);
  return path.join(cacheDir, key, `${clip}.json`);
}

/**
 * analyzeGame, with the real-footage observations kept in `cacheDir` (bench/out/observations): the
 * first run of a clip observes it and writes what the passes saw; later runs with the same model
 * and observation settings replay that through assembleRealObservations and analyzeObservations,
 * so sweeping the ball-path, rim-play and attempt settings costs seconds, not a model pass. The
 * replay gives the same shots as a fresh run (JSON keeps every number exactly). Observations kept
 * before the court pass measured the pictures' motion picture by picture (issue 25, `camera_setup`
 * and the camera followed over time) get the court pass
 * run again, with the kept observations' rims (decoding and registration only, about 20 s over all 79 clips), and written back, so
 * they replay as a fresh run would place the shots. The bench submits default options, so the
 * court pass runs with `camera_setup: fixed` (kept files hold that pass).
 */
export async function analyzeKeepingObservations(videoPath: string, video: VideoInfo, workDir: string, settings: AnalysisSettings, cacheDir: string, clip: string, options: AnalyzeInput["options"] = {}, perturb?: PerturbObservations): Promise<AnalysisRun> {
  const input = { models, videoPath, video, workDir, options, settings };
  const s = realFootageSettings(settings.realFootage);
  const file = observationFile(cacheDir, clip, settings, s);
  let obs: Observations;
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, "utf8")) as { raw: RawRealObservations; courtViews?: CourtView[]; courtMotion?: PictureMotion };
    if (!kept.courtMotion?.steps) {
      // With the rims of the kept observations, as observeRealFootage runs it.
      const { rims } = assembleRealObservations(kept.raw, s);
      const court = await observeCourtViews(videoFrames(videoPath, video), kept.raw.fps, { camera: DEFAULT_SUBMIT_OPTIONS.camera_setup, durationS: video.durationSeconds, rims, lines: await models.courtLines() });
      Object.assign(kept, { courtViews: court.views, courtMotion: court.motion });
      writeFileSync(`${file}.part`, JSON.stringify(kept));
      renameSync(`${file}.part`, file);
    }
    obs = { ...assembleRealObservations(perturb ? perturb(kept.raw) : kept.raw, s), courtViews: kept.courtViews, courtMotion: kept.courtMotion };
  } else {
    if (perturb) throw new Error(`${clip}: no kept observations to perturb in ${cacheDir} (run bench:realclips with --observations first)`);
    const observed = await observeVideo(input, video);
    if (observed.details) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.part`, JSON.stringify({ raw: observed.details, courtViews: observed.courtViews, courtMotion: observed.courtMotion }));
      renameSync(`${file}.part`, file);
    }
    obs = observed;
  }
  if (obs.frames === 0) throw new AnalysisError("source_invalid", "no frames could be decoded");
  return analyzeObservations(input, video, obs);
}

export async function scoreClip(clip: ManifestClip, index: number, workRoot: string, dir = REALCLIPS_DIR, settings: AnalysisSettings = {}, observationsDir?: string, perturb?: PerturbObservations): Promise<ClipScore> {
  const file = path.join(dir, clip.file);
  const name = clipName(clip);
  const workDir = path.join(workRoot, name);
  const decodeSeconds = observationsDir ? 0 : bareDecodeSeconds(file);
  const t0 = performance.now();
  let outcome = "processed";
  let found: Array<FoundShot & { three: boolean; onCourt: boolean }> = [];
  let freeThrowsCalled = 0;
  try {
    const video = await probe(file);
    const result = observationsDir ? await analyzeKeepingObservations(file, video, workDir, settings, observationsDir, name, {}, perturb) : await analyzeGame({ models, videoPath: file, video, workDir, options: {}, settings });
    const rimTimes = new Map(readJsonl(result.artifacts.actions).filter((r) => r.type === "shot").map((r) => [r.shot as string, (r.rim ?? null) as number | null]));
    found = result.shots.map((s) => ({ release: s.start_seconds, rim: rimTimes.get(s.key) ?? null, made: s.made, three: s.is_three_point, onCourt: s.location.shot_world_normed !== null }));
    freeThrowsCalled = result.shots.filter((s) => s.is_free_throw).length;
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
    outcome = e.code;
  }
  const analysisSeconds = (performance.now() - t0) / 1000;
  return {
    clip: name,
    split: clip.split,
    original: index < ORIGINAL_SET_SIZE,
    camera: clip.camera,
    view: clip.view,
    outcome,
    shots: found,
    freeThrowsCalled,
    freeThrowsTrue: FREE_THROW_TRUTH.get(name) ?? 0,
    twoOrThree: checkTwoOrThree(clip.shots, found, TWO_OR_THREE_TRUTH.get(name) ?? []),
    ...clipShotCounts(clip.shots, found),
    ...detectionRates(clip, workDir),
    videoSeconds: clip.duration_s,
    decodeSeconds,
    analysisSeconds,
  };
}

export interface PartSummary extends ShotScores {
  /** The middle 95 % of F1 and made/missed over clips drawn with replacement (metrics.ts clipBootstrapIntervals). */
  intervals: { f1: ScoreInterval; madeAccuracy: ScoreInterval };
  /** Clips labelled with an attempt (so with a visible hoop) that did not come back processed. */
  visibleHoopFailures: string[];
  /** Free throws called on the clips with a true one (and how many are true), and on the clips without (and how many shots were found there). */
  freeThrows: { calledOnFreeThrowClips: number; true: number; calledOnOthers: number; shotsOnOthers: number };
  /** Matched attempts labelled 2 or 3 and called right, of those labelled: on a registered court and court-free. */
  twoOrThree: { onCourt: CallsRight; courtFree: CallsRight };
  videoSeconds: number;
  analysisSeconds: number;
  decodeSeconds: number;
}

/** How many calls were right, of how many; and the same for the attempts labelled 3 alone (few: a rule that always says 2 is right on most). */
const callsRight = (checks: TwoOrThreeCheck[]) => {
  const right = (c: TwoOrThreeCheck[]) => c.filter((p) => p.found === p.truth).length;
  const threes = checks.filter((p) => p.truth);
  return { right: right(checks), of: checks.length, threesRight: right(threes), threes: threes.length };
};
type CallsRight = ReturnType<typeof callsRight>;

export function summarize(scores: ClipScore[]): PartSummary {
  const sum = (f: (s: ClipScore) => number) => scores.reduce((a, s) => a + f(s), 0);
  return {
    ...scoreShots(scores),
    intervals: clipBootstrapIntervals(scores),
    visibleHoopFailures: scores.filter((s) => s.truthAttempts > 0 && s.outcome !== "processed").map((s) => `${s.clip} (${s.outcome})`),
    freeThrows: {
      calledOnFreeThrowClips: sum((s) => (s.freeThrowsTrue > 0 ? s.freeThrowsCalled : 0)),
      true: sum((s) => s.freeThrowsTrue),
      calledOnOthers: sum((s) => (s.freeThrowsTrue > 0 ? 0 : s.freeThrowsCalled)),
      shotsOnOthers: sum((s) => (s.freeThrowsTrue > 0 ? 0 : s.shots.length)),
    },
    twoOrThree: {
      onCourt: callsRight(scores.flatMap((s) => s.twoOrThree.filter((p) => p.onCourt))),
      courtFree: callsRight(scores.flatMap((s) => s.twoOrThree.filter((p) => !p.onCourt))),
    },
    videoSeconds: sum((s) => s.videoSeconds),
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
  const { timings } = await analyzeGame({ models, videoPath: SPEED_FILE, video: await probe(SPEED_FILE), workDir: path.resolve("bench/out/realclips-work/speed-60s"), options: {} }).then(
    (r) => r.diagnostics,
    (e): AnalysisDiagnostics => {
      if (!(e instanceof AnalysisError) || !e.diagnostics) throw e;
      return e.diagnostics;
    },
  );
  const analysis = (performance.now() - t0) / 1000;
  const d2 = bareDecodeSeconds(SPEED_FILE);
  return { decode: (d1 + d2) / 2, analysis, scanS: timings.scanMs / 1000, watchS: timings.watchMs / 1000 };
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

const USAGE = `npm run bench:realclips -- [--split tuning|held_out] [--clips name,name] [--no-speed] [--set group.NAME=value …] [--observations DIR] [--out file.json] [--quiet]
  --split     one part only (sweep and tune on tuning; held_out is measured, never tuned on)
  --clips     only the clips whose file name contains one of these
  --no-speed  skip the speed runs on 60 s of stitched 720p30
  --set       override a named setting, e.g. --set attempts.NEAR_RIM_WIDTHS=1.5 --set realFootage.rimPlay.NEAR_RIM_WIDTHS=2.5
  --observations  keep each clip's observations in DIR (e.g. bench/out/observations) and replay them
              when the model and the observation settings are the same (the times are then replay times)
  --out       where the JSON goes (default bench/out/realclips.json)
  --quiet     no line per clip`;

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)} %`);

function clipRows(scores: ClipScore[]): Array<Record<string, string | number>> {
  return scores.map((s) => ({
    clip: s.clip,
    camera: `${s.camera} / ${s.view}`,
    outcome: s.outcome,
    "attempts found / true": `${s.attempts} / ${s.truthAttempts}`,
    "makes found / true": `${s.makes} / ${s.truthMakes}`,
    matched: s.matched,
    "made/missed right": s.matched ? `${s.madeCorrect} / ${s.matched}` : "–",
    "release error s": s.releaseErrorsS.length ? s.releaseErrorsS.map((e) => e.toFixed(2)).join(" ") : "–",
    "exactly right": exactlyRight(s) ? "yes" : "no",
    "free throws called / true": `${s.freeThrowsCalled} / ${s.freeThrowsTrue}`,
    "2 or 3: called (labelled)": s.twoOrThree.length ? s.twoOrThree.map((p) => `${p.found ? 3 : 2}${p.onCourt ? " court" : ""} (${p.truth ? 3 : 2})`).join(", ") : "–",
    "rim found": pct(s.rimRate),
    "ball in flight": pct(s.ballRate),
    "analysis / video": `${(s.analysisSeconds / Math.max(s.videoSeconds, 1e-3)).toFixed(2)}×`,
  }));
}

const interval = (i: ScoreInterval) => (i ? `${Math.round(i[0] * 100)}–${Math.round(i[1] * 100)} %` : "–");

/** The summary of each part side by side, one row a measure (the issue's targets in the last column). */
function summaryRows(parts: Array<[string, PartSummary]>): Array<Record<string, string | number>> {
  const row = (measure: string, value: (p: PartSummary) => string, target: string) => ({ measure, ...Object.fromEntries(parts.map(([k, p]) => [k, p.clips ? value(p) : "–"])), target });
  return [
    row("clips (attempts labelled)", (p) => `${p.clips} (${p.truthAttempts})`, ""),
    row("attempt precision / recall", (p) => `${pct(p.precision)} / ${pct(p.recall)}`, ""),
    row("attempt F1", (p) => pct(p.f1), "held-out ≥ 85 %"),
    row("made/missed on matched attempts", (p) => pct(p.madeAccuracy), "held-out ≥ 85 %"),
    row("F1 / made/missed, 95 % interval over clips", (p) => `${interval(p.intervals.f1)} / ${interval(p.intervals.madeAccuracy)}`, ""),
    row("clips exactly right", (p) => `${p.exactlyRight} / ${p.clips}`, ""),
    row("release error, median / share within 0.2 s", (p) => (p.medianReleaseErrorS === null ? "–" : `${p.medianReleaseErrorS.toFixed(2)} s / ${pct(p.releasesWithinSameS)}`), ""),
    row("clips with attempts and makes within ±1", (p) => `${p.withinOne} / ${p.clips}`, ""),
    row("clips without an attempt: shots found", (p) => `${p.attemptsOnClipsWithoutAttempt} on ${p.clipsWithoutAttempt} clips`, "0"),
    row("clips with a visible hoop that failed", (p) => String(p.visibleHoopFailures.length), "0"),
    row("free throws called: on free-throw clips (true) / on other clips (shots found there)", (p) => `${p.freeThrows.calledOnFreeThrowClips} (${p.freeThrows.true}) / ${p.freeThrows.calledOnOthers} (${p.freeThrows.shotsOnOthers})`, "all / 0"),
    row("2 or 3 right on matched attempts labelled by eye (threes alone): registered court / court-free", (p) => [p.twoOrThree.onCourt, p.twoOrThree.courtFree].map((c) => `${c.right} of ${c.of} (${c.threesRight} of ${c.threes})`).join(" / "), "held-out ≥ 90 % (registered)"),
    row("analysis time / video length", (p) => `${(p.analysisSeconds / p.videoSeconds).toFixed(2)}×`, ""),
  ];
}

async function main() {
  const { args, arg } = commandLine(USAGE);
  if (!existsSync(path.join(REALCLIPS_DIR, "manifest.json"))) {
    console.error(`no real clips at ${REALCLIPS_DIR} (the shared folder beside the checkout)`);
    process.exit(2);
  }
  if (args.includes("--speed-child")) {
    // Last line of stdout (the runner's modules log to stdout too).
    process.stdout.write(`\n${JSON.stringify(await timeSpeedFile())}\n`);
    return;
  }
  const chosen = chooseClips(arg("split"), arg("clips")?.split(","));
  const settings = parseSettingArgs(args.flatMap((a, i) => (a === "--set" ? [args[i + 1]] : [])));
  if (Object.keys(settings).length) console.log(`settings: ${JSON.stringify(settings)}`);
  const workRoot = path.resolve("bench/out/realclips-work");
  mkdirSync(workRoot, { recursive: true });
  const scores: ClipScore[] = [];
  for (const { clip, index } of chosen) {
    const s = await scoreClip(clip, index, workRoot, REALCLIPS_DIR, settings, arg("observations"));
    scores.push(s);
    if (!args.includes("--quiet"))
      console.error(`[${scores.length}/${chosen.length}] ${s.clip} (${s.split}): ${s.outcome}, attempts ${s.attempts}/${s.truthAttempts}, makes ${s.makes}/${s.truthMakes}, matched ${s.matched}, made ok ${s.madeCorrect} (${s.analysisSeconds.toFixed(1)} s)`);
  }
  for (const part of SPLITS) {
    const rows = scores.filter((s) => s.split === part);
    if (!rows.length) continue;
    console.log(`\n${part === "tuning" ? "Tuning part" : "Held-out part (measured, never tuned on)"}: ${rows.length} clips\n`);
    printTable(clipRows(rows));
  }
  const parts: Array<[string, PartSummary]> = [
    ["tuning", summarize(scores.filter((s) => s.split === "tuning"))],
    ["held-out", summarize(scores.filter((s) => s.split === "held_out"))],
    ["original 18 (tuning)", summarize(scores.filter((s) => s.original))],
  ];
  console.log("");
  printTable(summaryRows(parts));
  for (const [name, p] of parts) if (p.visibleHoopFailures.length) console.log(`\n${name}: clips with a visible hoop that failed: ${p.visibleHoopFailures.join(", ")}`);
  const speed = args.includes("--no-speed") ? null : speedRuns();
  const out = arg("out") ?? "bench/out/realclips.json";
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ scores, summary: Object.fromEntries(parts), speed }, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) runBench(main);
