// Does the answer depend on resolution or encoding? TUNING clips of ../shared/realclips exported at
// 360p, 720p and 1080p and re-encoded at a lower quality (at run time, under bench/out; never
// committed), each analysed with the runner's defaults; every copy is compared with the 720p copy
// (metrics.ts sameShots: releases within 0.2 s, the same made/missed calls). The clips that agree in
// every copy are test/gpu-runner/resolution-invariance.test.ts's. With `--observations DIR` each
// copy's observations are kept there (as bench:realclips keeps them) and replayed on later runs, so
// a change to the rules after the observation (`--set group.NAME=value`, or code) is checked on
// every copy in seconds. Each clip also gets camera-motion copies cut from its 720p copy (a handheld
// sway and a pan, invariance-copies.ts MOTION_COPIES; `--strong` adds STRONG_MOTION_COPIES).
//   npx tsx bench/invariance.ts [--clips name,name] [--observations DIR] [--set group.NAME=value] [--strong]
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame, type AnalysisSettings } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { type ReleasedShot, sameShots } from "../gpu-runner/analysis/metrics.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { COPIES, exportCopy, exportMotionCopy, MOTION_COPIES, REFERENCE_COPY, STRONG_MOTION_COPIES } from "./invariance-copies.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { analyzeKeepingObservations, parseSettingArgs } from "./realclips.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/invariance");
const DEFAULT_CLIPS = ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "lreithmayr_gym_side_1shot", "chonyy_outdoor_5shots"];

/** A copy's shots, or the code it failed with; observed afresh, or replayed from `observations` where kept there. */
async function shotsOf(file: string, settings: AnalysisSettings, observations: string | null): Promise<ReleasedShot[] | string> {
  return (await analyseCopy(file, settings, observations)).shots;
}

/** A copy's shots (or the code it failed with) and where its first kept hoop is, as a fraction of the width. */
async function analyseCopy(file: string, settings: AnalysisSettings, observations: string | null): Promise<{ shots: ReleasedShot[] | string; hoopX: number | null }> {
  const name = path.basename(file, ".mp4");
  const workDir = path.join(OUT, `work-${name}`);
  try {
    const video = await probe(file);
    const r = observations ? await analyzeKeepingObservations(file, video, workDir, settings, observations, name) : await analyzeGame({ models, videoPath: file, video, workDir, options: {}, settings });
    const firstRow = JSON.parse(readFileSync(r.artifacts.hoops, "utf8").split("\n")[0]) as { hoops: Array<{ x: number }> };
    return { shots: r.shots.map((s) => ({ start: s.start_seconds, made: s.made })), hoopX: firstRow.hoops[0]?.x ?? null };
  } catch (e) {
    if (e instanceof AnalysisError) return { shots: e.code, hoopX: null };
    throw e;
  }
}

const show = (s: ReleasedShot[] | string) => (typeof s === "string" ? s : s.map((x) => `${x.start.toFixed(2)}${x.made ? " made" : " missed"}`).join(", ") || "none");

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
    const found = new Map<string, ReleasedShot[] | string>();
    const referenceFile = exportCopy(path.join(REALCLIPS_DIR, clip.file), name, COPIES.find((v) => v.label === REFERENCE_COPY)!, OUT);
    const { shots: reference, hoopX } = await analyseCopy(referenceFile, settings, observations);
    for (const v of COPIES) found.set(v.label, v.label === REFERENCE_COPY ? reference : await shotsOf(exportCopy(path.join(REALCLIPS_DIR, clip.file), name, v, OUT), settings, observations));
    const label = (v: string) => ({ clip: name, copy: v, shots: show(found.get(v)!), [`agrees with ${REFERENCE_COPY}`]: v === REFERENCE_COPY ? "–" : agrees(found.get(v)!, reference) ? "yes" : "NO" });
    for (const v of COPIES) rows.push(label(v.label));
    // The camera-motion copies are cut from the 720p copy; a pan keeps the reference's hoop in the picture.
    for (const v of [...MOTION_COPIES, ...(strong ? STRONG_MOTION_COPIES : [])]) {
      if (hoopX === null && v.motion.kind === "pan") continue;
      const moved = exportMotionCopy(referenceFile, name, v, OUT, hoopX ?? 0.5);
      found.set(v.label, await shotsOf(moved.file, settings, observations));
      rows.push({ ...label(v.label), copy: v.motion.kind === "pan" ? `${v.label} (hoop moves ${Math.round(moved.hoopMove * 100)} %)` : v.label });
    }
  }
  printTable(rows);
}

runBench(main);
