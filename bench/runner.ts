// Speed: analysis wall time for a 60 s 1080p30 generated game against a bare ffmpeg decode of the
// same file in the same run, plus highlight rendering time per clip.
//   npx tsx bench/runner.ts [--seconds 60] [--size 1080p] [--clips 3]
import { existsSync, readFileSync, statSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { SYNTHETIC_FIXTURE } from "../gpu-runner/vision/detector.ts";
import { analyzeGame } from "../gpu-runner/analysis/pipeline.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { runTool } from "../gpu-runner/media/run.ts";
import { renderHighlights } from "../gpu-runner/outputs/highlights.ts";
import { executionProvider } from "../gpu-runner/vision/session.ts";
import { GENERATOR_VERSION, generateGame, type GroundTruth } from "../scripts/synth/generate.ts";
import type { SizeName } from "../scripts/synth/render.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { commandLine } from "./lib.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const USAGE = `npx tsx bench/runner.ts [--seconds 60] [--size 1080p] [--clips 3] [--grain 6]
  analysis wall time of a generated game against a bare ffmpeg decode of it, and highlight rendering time
  --grain  camera-like noise (0: the clean file)`;
const { arg } = commandLine(USAGE);
const seconds = Number(arg("seconds") ?? "60");
const size = (arg("size") ?? "1080p") as SizeName;
const clips = Number(arg("clips") ?? "3");
// Camera-like noise so the file decodes like real footage (see GenerateOptions.grain); --grain 0 for the clean file.
const grain = Number(arg("grain") ?? "6");
const outDir = path.resolve("bench/out/games");

async function main() {
  const seed = 201;
  const video = path.join(outDir, `game-s${seed}-wide-${size}${grain ? `-g${grain}` : ""}.mp4`);
  const gtFile = video.replace(/\.mp4$/, ".json");
  const fresh = existsSync(video) && existsSync(gtFile) && (() => {
    const gt = JSON.parse(readFileSync(gtFile, "utf8")) as GroundTruth;
    return gt.generator_version === GENERATOR_VERSION && gt.seconds === seconds;
  })();
  if (!fresh) await generateGame({ seed, seconds, camera: "wide", size, out: outDir, grain });
  const info = await probe(video);
  const ep = executionProvider(() => {});

  // Warm up both paths (file cache, model load) so neither pays a first-run cost.
  await runTool(FFMPEG, ["-v", "error", "-i", video, "-t", "2", "-f", "null", "-"]);
  // The bare decode runs before and after the analysis and the ratio uses their mean, so a change
  // in machine load during the run (other jobs on a shared host) shows up instead of skewing it.
  const bareDecode = async () => {
    const t0 = performance.now();
    await runTool(FFMPEG, ["-v", "error", "-i", video, "-f", "null", "-"]);
    return (performance.now() - t0) / 1000;
  };
  const decodeBefore = await bareDecode();

  const t1 = performance.now();
  const result = await analyzeGame({ models, videoPath: video, video: await probe(video), workDir: path.resolve("bench/out/runner-work"), options: { jerseys: "auto" }, settings: { detector: SYNTHETIC_FIXTURE } });
  const analysisS = (performance.now() - t1) / 1000;
  const tm = result.diagnostics.timings;
  const decodeAfter = await bareDecode();
  const decodeS = (decodeBefore + decodeAfter) / 2;

  const picked = result.highlights.slice(0, clips).map((h) => h.key);
  const t2 = performance.now();
  await renderHighlights(video, result, path.resolve("bench/out/runner-work"), { only: picked });
  const perClipS = (performance.now() - t2) / 1000 / Math.max(1, picked.length);
  const meanClip = result.highlights.slice(0, clips).reduce((a, h) => a + h.length_seconds, 0) / Math.max(1, picked.length);

  const mbps = (statSync(video).size * 8) / info.durationSeconds / 1e6;
  console.log(`\nbench/runner: ${path.basename(video)} (${info.width}x${info.height} @ ${info.fps} fps, ${info.durationSeconds.toFixed(1)} s, ${mbps.toFixed(1)} Mbit/s), ${cpus().length} CPU cores, onnxruntime EP ${ep}\n`);
  console.log("| measure | value |");
  console.log("|---|---|");
  console.log(`| bare decode \`ffmpeg -i file -f null -\` (mean of before and after) | ${decodeS.toFixed(2)} s (${decodeBefore.toFixed(2)} / ${decodeAfter.toFixed(2)}) |`);
  console.log(`| analysis (analyzeGame, highlights excluded) | ${analysisS.toFixed(2)} s |`);
  console.log(`| ratio analysis / decode | ${(analysisS / decodeS).toFixed(2)}× (target ≤ 2×) |`);
  console.log(`| analysis speed | ${(info.durationSeconds / analysisS).toFixed(2)}× real time |`);
  console.log(`| highlight rendering | ${perClipS.toFixed(2)} s per clip (${picked.length} clips, mean ${meanClip.toFixed(1)} s long, all renditions + previews) |`);
  console.log(`| shots found | ${result.shots.length} |`);
  console.log("\nWhere the analysis time went (ms, summed over frames; decode wait = time blocked on the ffmpeg pipe):");
  console.log(JSON.stringify({ ...Object.fromEntries(Object.entries(tm).map(([k, v]) => [k, Math.round(v)])) }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
