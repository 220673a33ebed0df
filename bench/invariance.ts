// Does the answer depend on resolution or encoding? TUNING clips of ../shared/realclips exported at
// 360p, 720p and 1080p and re-encoded at a lower quality (at run time, under bench/out; never
// committed), each analysed with the runner's defaults; every copy is compared with the 720p copy
// (metrics.ts sameShots: releases within 0.2 s, the same made/missed calls). The clips that agree in
// every copy are test/gpu-runner/resolution-invariance.test.ts's. With `--observations DIR` each
// copy's observations are kept there (as bench:realclips keeps them) and replayed on later runs, so
// a change to the rules after the observation (`--set group.NAME=value`, or code) is checked on
// every copy in seconds. Each clip also gets camera-motion copies cut from its 720p copy (a handheld
// sway and a pan, invariance-copies.ts MOTION_COPIES; `--strong` adds STRONG_MOTION_COPIES). Where
// the 720p copy places shots on a registered court, each copy's spots for the same shots are compared
// with its (the same court seen through another picture: they should not move).
//   npx tsx bench/invariance.ts [--clips name,name] [--observations DIR] [--set group.NAME=value] [--strong]
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame, type AnalysisSettings } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { type ReleasedShot, sameShots, SHOT_METRICS_DEFAULTS } from "../gpu-runner/analysis/metrics.ts";
import { COURT_TEMPLATES, type CourtTypeId } from "../contract/court-types.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { COPIES, exportCopy, exportMotionCopy, MOTION_COPIES, REFERENCE_COPY, STRONG_MOTION_COPIES } from "./invariance-copies.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { analyzeKeepingObservations, parseSettingArgs } from "./realclips.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/invariance");
const DEFAULT_CLIPS = ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "lreithmayr_gym_side_1shot", "chonyy_outdoor_5shots"];

/** A shot's place on the court (metres across from the left sideline and from the baseline) and the court type it was measured on; null when it has none. */
type CourtSpot = { m: [number, number]; type: CourtTypeId } | null;
/** What a copy's analysis gave: its shots (or the code it failed with) and each shot's court spot. */
interface CopyResult { shots: ReleasedShot[] | string; spots: CourtSpot[] }

/** A copy's shots (or the code it failed with), their court spots, and where its first kept hoop is, as a fraction of the width; observed afresh, or replayed from `observations` where kept there. */
async function analyseCopy(file: string, settings: AnalysisSettings, observations: string | null): Promise<CopyResult & { hoopX: number | null }> {
  const name = path.basename(file, ".mp4");
  const workDir = path.join(OUT, `work-${name}`);
  try {
    const video = await probe(file);
    const r = observations ? await analyzeKeepingObservations(file, video, workDir, settings, observations, name) : await analyzeGame({ models, videoPath: file, video, workDir, options: {}, settings });
    const firstRow = JSON.parse(readFileSync(r.artifacts.hoops, "utf8").split("\n")[0]) as { hoops: Array<{ x: number }> };
    const spots = r.shots.map((s): CourtSpot => {
      const w = s.location.shot_world_normed, t = s.court && COURT_TEMPLATES[s.court.type];
      return w && t ? { m: [w[0] * t.width, w[1] * t.halfLength], type: t.id } : null;
    });
    return { shots: r.shots.map((s) => ({ start: s.start_seconds, made: s.made })), spots, hoopX: firstRow.hoops[0]?.x ?? null };
  } catch (e) {
    if (e instanceof AnalysisError) return { shots: e.code, spots: [], hoopX: null };
    throw e;
  }
}

const show = (s: ReleasedShot[] | string) => (typeof s === "string" ? s : s.map((x) => `${x.start.toFixed(2)}${x.made ? " made" : " missed"}`).join(", ") || "none");

/**
 * Where a copy places the shots on the court against the reference copy: of the reference's shots
 * with a court spot, how many the copy places too (a shot released within the same-release window,
 * on the same court type), how far apart the two spots are (metres, median / largest), and how many
 * of the copy's shots were placed on another rule book. A camera that moves sees the same court: its
 * spots should be the reference's.
 */
function spotsAgainst(copy: CopyResult, reference: CopyResult): string {
  if (typeof reference.shots === "string" || typeof copy.shots === "string") return "–";
  const placed = reference.spots.flatMap((spot, i) => (spot ? [{ spot, start: (reference.shots as ReleasedShot[])[i].start }] : []));
  if (!placed.length) return "–";
  const apart: number[] = [];
  for (const r of placed) {
    const k = copy.shots.findIndex((s) => Math.abs(s.start - r.start) <= SHOT_METRICS_DEFAULTS.SAME_RELEASE_S + 1e-6);
    const c = k >= 0 ? copy.spots[k] : null;
    if (c && c.type === r.spot.type) apart.push(Math.hypot(c.m[0] - r.spot.m[0], c.m[1] - r.spot.m[1]));
  }
  apart.sort((a, b) => a - b);
  const m = (x: number) => x.toFixed(2);
  // Any of the copy's shots on another rule book than the reference's court: a wrong registration.
  const types = new Set(placed.map((p) => p.spot.type));
  const otherBook = copy.spots.filter((c) => c && !types.has(c.type)).length;
  return `${apart.length} of ${placed.length}${apart.length ? `, ${m(apart[Math.floor((apart.length - 1) / 2)])} / ${m(apart[apart.length - 1])} m` : ""}${otherBook ? `; ${otherBook} shot(s) on another rule book` : ""}`;
}

function agrees(a: ReleasedShot[] | string, b: ReleasedShot[] | string): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return sameShots(a, b);
}

const USAGE = `npx tsx bench/invariance.ts [--clips name,name] [--observations DIR] [--set group.NAME=value …] [--strong]
  tuning clips exported at 360p, 720p and 1080p, re-encoded at a lower quality and cut into camera-motion
  copies (under bench/out), each analysed; every copy compared with the 720p copy
  --observations  keep each copy's observations in DIR and replay them on later runs (rules-only changes in seconds)
  --strong        also the stronger camera-motion copies`;

async function main() {
  const { args, arg } = commandLine(USAGE);
  const names = arg("clips")?.split(",") ?? DEFAULT_CLIPS;
  const observationsDir = arg("observations");
  const observations = observationsDir ? path.resolve(observationsDir) : null;
  const strong = args.includes("--strong");
  const settings = parseSettingArgs(args.flatMap((a, k) => (a === "--set" ? [args[k + 1]] : [])));
  mkdirSync(OUT, { recursive: true });
  const rows: Array<Record<string, string>> = [];
  for (const name of names) {
    const clip = tuningClips().find((c) => c.file.includes(name));
    if (!clip) throw new Error(`${name} is not a tuning clip`);
    const found = new Map<string, CopyResult>();
    const referenceFile = exportCopy(path.join(REALCLIPS_DIR, clip.file), name, COPIES.find((v) => v.label === REFERENCE_COPY)!, OUT);
    const { hoopX, ...reference } = await analyseCopy(referenceFile, settings, observations);
    for (const v of COPIES) found.set(v.label, v.label === REFERENCE_COPY ? reference : await analyseCopy(exportCopy(path.join(REALCLIPS_DIR, clip.file), name, v, OUT), settings, observations));
    const label = (v: string) => ({
      clip: name,
      copy: v,
      shots: show(found.get(v)!.shots),
      [`agrees with ${REFERENCE_COPY}`]: v === REFERENCE_COPY ? "–" : agrees(found.get(v)!.shots, reference.shots) ? "yes" : "NO",
      [`court spots: placed of ${REFERENCE_COPY}'s, apart median / max`]: v === REFERENCE_COPY ? `${reference.spots.filter(Boolean).length} placed` : spotsAgainst(found.get(v)!, reference),
    });
    for (const v of COPIES) rows.push(label(v.label));
    // The camera-motion copies are cut from the 720p copy; a pan keeps the reference's hoop in the picture.
    for (const v of [...MOTION_COPIES, ...(strong ? STRONG_MOTION_COPIES : [])]) {
      if (hoopX === null && v.motion.kind === "pan") continue;
      const moved = exportMotionCopy(referenceFile, name, v, OUT, hoopX ?? 0.5);
      found.set(v.label, await analyseCopy(moved.file, settings, observations));
      rows.push({ ...label(v.label), copy: v.motion.kind === "pan" ? `${v.label} (hoop moves ${Math.round(moved.hoopMove * 100)} %)` : v.label });
    }
  }
  printTable(rows);
}

runBench(main);
