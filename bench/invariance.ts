// Does the answer depend on resolution or encoding? TUNING clips of ../shared/realclips exported at
// 360p, 720p and 1080p and re-encoded at a lower quality (at run time, under bench/out; never
// committed), each analysed with the runner's defaults; every copy is compared with the 720p copy
// (metrics.ts sameShots: releases within 0.2 s, the same made/missed calls). The clips that agree in
// every copy are test/gpu-runner/resolution-invariance.test.ts's. With `--observations DIR` each
// copy's observations are kept there (as bench:realclips keeps them) and replayed on later runs, so
// a change to the rules after the observation (`--set group.NAME=value`, or code) is checked on
// every copy in seconds.
//   npx tsx bench/invariance.ts [--clips name,name] [--observations DIR] [--set group.NAME=value]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame, type AnalysisSettings } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { type ReleasedShot, sameShots } from "../gpu-runner/analysis/metrics.ts";
import { printTable, runBench } from "./lib.ts";
import { COPIES, exportCopy, REFERENCE_COPY } from "./invariance-copies.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { analyzeKeepingObservations, parseSettingArgs } from "./realclips.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/invariance");
const DEFAULT_CLIPS = ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "lreithmayr_gym_side_1shot", "chonyy_outdoor_5shots"];

/** A copy's shots, or the code it failed with; observed afresh, or replayed from `observations` where kept there. */
async function shotsOf(file: string, settings: AnalysisSettings, observations: string | null): Promise<ReleasedShot[] | string> {
  const name = path.basename(file, ".mp4");
  const workDir = path.join(OUT, `work-${name}`);
  try {
    const video = await probe(file);
    const r = observations ? await analyzeKeepingObservations(file, video, workDir, settings, observations, name) : await analyzeGame({ models, videoPath: file, video, workDir, options: {}, settings });
    return r.shots.map((s) => ({ start: s.start_seconds, made: s.made }));
  } catch (e) {
    if (e instanceof AnalysisError) return e.code;
    throw e;
  }
}

const show = (s: ReleasedShot[] | string) => (typeof s === "string" ? s : s.map((x) => `${x.start.toFixed(2)}${x.made ? " made" : " missed"}`).join(", ") || "none");

function agrees(a: ReleasedShot[] | string, b: ReleasedShot[] | string): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return sameShots(a, b);
}

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf("--clips");
  const names = i >= 0 ? args[i + 1].split(",") : DEFAULT_CLIPS;
  const o = args.indexOf("--observations");
  const observations = o >= 0 ? path.resolve(args[o + 1]) : null;
  const settings = parseSettingArgs(args.flatMap((a, k) => (a === "--set" ? [args[k + 1]] : [])));
  mkdirSync(OUT, { recursive: true });
  const rows: Array<Record<string, string>> = [];
  for (const name of names) {
    const clip = tuningClips().find((c) => c.file.includes(name));
    if (!clip) throw new Error(`${name} is not a tuning clip`);
    const found = new Map<string, ReleasedShot[] | string>();
    for (const v of COPIES) found.set(v.label, await shotsOf(exportCopy(path.join(REALCLIPS_DIR, clip.file), name, v, OUT), settings, observations));
    const reference = found.get(REFERENCE_COPY)!;
    for (const v of COPIES) rows.push({ clip: name, copy: v.label, shots: show(found.get(v.label)!), [`agrees with ${REFERENCE_COPY}`]: v.label === REFERENCE_COPY ? "–" : agrees(found.get(v.label)!, reference) ? "yes" : "NO" });
  }
  printTable(rows);
}

runBench(main);
