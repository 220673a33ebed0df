// Does the answer depend on resolution or encoding? TUNING clips of ../shared/realclips exported at
// 360p, 720p and 1080p and re-encoded at a lower quality (at run time, under bench/out; never
// committed), each analysed with the runner's defaults; every copy is compared with the 720p copy
// (releases within 0.2 s, the same made/missed calls). The acceptance test of the point 5
// once every row agrees.
//   npx tsx bench/invariance.ts [--clips name,name]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { type ReleasedShot, sameShots } from "../gpu-runner/analysis/metrics.ts";
import { printTable, runBench } from "./lib.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/invariance");
const VARIANTS = [
  { label: "360p", height: 360, crf: 20 },
  { label: "720p", height: 720, crf: 20 },
  { label: "1080p", height: 1080, crf: 20 },
  { label: "720p crf 32", height: 720, crf: 32 },
];
const REFERENCE = "720p";
const DEFAULT_CLIPS = ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "lreithmayr_gym_side_1shot", "chonyy_outdoor_5shots"];


function exportClip(file: string, name: string, v: (typeof VARIANTS)[number]): string {
  const out = path.join(OUT, `${name}-${v.height}-crf${v.crf}.mp4`);
  if (!existsSync(out))
    execFileSync(FFMPEG, ["-v", "error", "-y", "-i", file, "-vf", `scale=-2:${v.height}:flags=lanczos,setsar=1`, "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", String(v.crf), "-pix_fmt", "yuv420p", out]);
  return out;
}

async function shotsOf(file: string): Promise<ReleasedShot[] | string> {
  try {
    const r = await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(OUT, `work-${path.basename(file, ".mp4")}`), options: {} });
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
  mkdirSync(OUT, { recursive: true });
  const rows: Array<Record<string, string>> = [];
  for (const name of names) {
    const clip = tuningClips().find((c) => c.file.includes(name));
    if (!clip) throw new Error(`${name} is not a tuning clip`);
    const found = new Map<string, ReleasedShot[] | string>();
    for (const v of VARIANTS) found.set(v.label, await shotsOf(exportClip(path.join(REALCLIPS_DIR, clip.file), name, v)));
    const reference = found.get(REFERENCE)!;
    for (const v of VARIANTS) rows.push({ clip: name, copy: v.label, shots: show(found.get(v.label)!), [`agrees with ${REFERENCE}`]: v.label === REFERENCE ? "–" : agrees(found.get(v.label)!, reference) ? "yes" : "NO" });
  }
  printTable(rows);
}

runBench(main);
