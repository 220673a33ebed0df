// Whole games are long: analysis time per video second must stay flat from minutes to an hour, and
// memory bounded. A 60 s 1080p30 base is stitched at run time from the TUNING clips of
// ../shared/realclips (scaled and padded, never committed: the clips carry no licence), then joined
// with itself without re-encoding into the lengths asked for; each length is analysed in a fresh
// process (its peak resident memory is the process's own), with the runner's defaults.
//   npx tsx bench/long-video.ts [--minutes 10,60] [--base-seconds 60]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { printTable, runBench } from "./lib.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/long-video");

function baseSegment(seconds: number): string {
  const out = path.join(OUT, `base-${seconds}s-1080p30.mp4`);
  if (existsSync(out)) return out;
  const landscape = tuningClips().filter((c) => c.width > c.height && c.width >= 640);
  const inputs: string[] = [];
  let total = 0;
  while (total < seconds) for (const c of landscape) if (total < seconds) { inputs.push(path.join(REALCLIPS_DIR, c.file)); total += c.duration_s; }
  const filters = inputs.map((_, i) => `[${i}:v]scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,fps=30,setsar=1,format=yuv420p[v${i}]`);
  const concat = `${inputs.map((_, i) => `[v${i}]`).join("")}concat=n=${inputs.length}:v=1:a=0,trim=duration=${seconds}[out]`;
  execFileSync(FFMPEG, ["-v", "error", "-y", ...inputs.flatMap((f) => ["-i", f]), "-filter_complex", [...filters, concat].join(";"), "-map", "[out]", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", "60", `${out}.part.mp4`]);
  renameSync(`${out}.part.mp4`, out);
  return out;
}

/** The base repeated to `minutes` (packets copied: every copy decodes to the same frames). */
function longFile(base: string, baseSeconds: number, minutes: number): string {
  const out = path.join(OUT, `long-${minutes}min.mp4`);
  if (existsSync(out)) return out;
  const copies = Math.max(1, Math.round((minutes * 60) / baseSeconds));
  const list = `${out}.txt`;
  writeFileSync(list, Array(copies).fill(`file '${base}'`).join("\n"));
  execFileSync(FFMPEG, ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", `${out}.part.mp4`]);
  renameSync(`${out}.part.mp4`, out);
  return out;
}

async function child(file: string): Promise<void> {
  const t0 = performance.now();
  let shots = 0;
  try {
    shots = (await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(OUT, `work-${path.basename(file, ".mp4")}`), options: {} })).shots.length;
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
  }
  const analysisS = (performance.now() - t0) / 1000;
  // maxRSS is in kilobytes; the model thread lives in this process, so it is counted.
  process.stdout.write(`\n${JSON.stringify({ analysisS, peakMb: process.resourceUsage().maxRSS / 1024, shots })}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (k: string, d: string) => {
    const i = args.indexOf(`--${k}`);
    return i >= 0 ? args[i + 1] : d;
  };
  if (args[0] === "--child") return child(args[1]);
  mkdirSync(OUT, { recursive: true });
  const baseSeconds = Number(arg("base-seconds", "60"));
  const minutes = arg("minutes", "10,60").split(",").map(Number);
  const base = baseSegment(baseSeconds);
  const rows: Array<Record<string, string | number>> = [];
  let first: number | null = null;
  for (const m of minutes) {
    const file = longFile(base, baseSeconds, m);
    const out = execFileSync(process.execPath, ["--import", "tsx", import.meta.filename, "--child", file], { stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 });
    const r = JSON.parse(out.toString().trim().split("\n").at(-1)!) as { analysisS: number; peakMb: number; shots: number };
    const perSecond = r.analysisS / (m * 60);
    first ??= perSecond;
    rows.push({
      "video min": m,
      "analysis s": r.analysisS.toFixed(1),
      "analysis s per video s": perSecond.toFixed(3),
      [`vs ${minutes[0]} min`]: `${(perSecond / first).toFixed(2)}×`,
      "peak memory MB": Math.round(r.peakMb),
      "shots found": r.shots,
      [`shots per base copy`]: (r.shots / Math.max(1, Math.round((m * 60) / baseSeconds))).toFixed(2),
    });
  }
  printTable(rows);
}

runBench(main);
