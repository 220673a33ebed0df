// Whole games are long: analysis time per video second must stay flat from minutes to an hour, and
// memory bounded. A 60 s 1080p30 base is stitched at run time from the TUNING clips of
// ../shared/realclips (scaled and padded, never committed: the clips carry no licence), then joined
// with itself without re-encoding into the lengths asked for; each length is analysed in a fresh
// process (its peak resident memory is the process's own), with the runner's defaults. Besides the
// wall time it reports the CPU time of the analysis and its ffmpeg children (what a busy machine
// does not inflate), and compares every copy of the base inside a long video with the first copy.
//   npx tsx bench/long-video.ts [--minutes 10,60] [--base-seconds 60] [--heap-mb 512]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AnalysisError, analyzeGame, type RunTimings } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { type ReleasedShot, sameShots } from "../gpu-runner/analysis/metrics.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { REALCLIPS_DIR, tuningClips } from "./realclips-manifest.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const OUT = path.resolve("bench/out/long-video");
/** The base is cut to whole scan samples (6 source frames at 30 fps = 0.2 s) without B-frames, so every copy in a joined file starts on the analysis grid and decodes to the base's frames. */
const FPS = 30;
const FRAMES_PER_SAMPLE = 6;
/** How often the child collects garbage to measure the heap the analysis holds (a full collection costs tens of ms). */
const GC_EVERY_MS = 10_000;

function baseSegment(seconds: number): string {
  const out = path.join(OUT, `base-${seconds}s-1080p30-grid.mp4`);
  if (existsSync(out)) return out;
  const landscape = tuningClips().filter((c) => c.width > c.height && c.width >= 640);
  const inputs: string[] = [];
  let total = 0;
  while (total < seconds) for (const c of landscape) if (total < seconds) { inputs.push(path.join(REALCLIPS_DIR, c.file)); total += c.duration_s; }
  const filters = inputs.map((_, i) => `[${i}:v]scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,fps=30,setsar=1,format=yuv420p[v${i}]`);
  const concat = `${inputs.map((_, i) => `[v${i}]`).join("")}concat=n=${inputs.length}:v=1:a=0[out]`;
  const frames = Math.round((seconds * FPS) / FRAMES_PER_SAMPLE) * FRAMES_PER_SAMPLE;
  execFileSync(FFMPEG, ["-v", "error", "-y", ...inputs.flatMap((f) => ["-i", f]), "-filter_complex", [...filters, concat].join(";"), "-map", "[out]", "-frames:v", String(frames), "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-g", String(2 * FPS), "-bf", "0", "-video_track_timescale", "15360", `${out}.part.mp4`]);
  renameSync(`${out}.part.mp4`, out);
  return out;
}

const copiesIn = (minutes: number, baseSeconds: number) => Math.max(1, Math.round((minutes * 60) / baseSeconds));

/** The base repeated to `minutes` (packets copied: every copy decodes to the same frames). */
function longFile(base: string, baseSeconds: number, minutes: number): string {
  const out = path.join(OUT, `long-${minutes}min.mp4`);
  if (existsSync(out)) return out;
  const copies = copiesIn(minutes, baseSeconds);
  const list = `${out}.txt`;
  writeFileSync(list, Array(copies).fill(`file '${base}'`).join("\n"));
  execFileSync(FFMPEG, ["-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", `${out}.part.mp4`]);
  renameSync(`${out}.part.mp4`, out);
  return out;
}

/** CPU seconds of this process (utime + stime: the analysis and its model thread) and of its children that have ended (cutime + cstime: the ffmpeg decoders), from /proc/self/stat in clock ticks of 1/100 s. */
function cpuSeconds(): { self: number; children: number } {
  const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ").map(Number);
  return { self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100 };
}

async function child(file: string): Promise<void> {
  const t0 = performance.now(), cpu0 = cpuSeconds();
  let shots: ReleasedShot[] = [];
  let timings: RunTimings | undefined;
  // What the analysis holds while it runs (V8 collects lazily, so the resident peak also counts
  // garbage a collection would free): a full collection at most every GC_EVERY_MS of its progress
  // reports, then the heap still in use (the model thread's heap is its own, not counted here; its
// memory is in the resident peak). The child runs with --expose-gc.
  const gc = (globalThis as { gc?: () => void }).gc;
  let heldMb = 0, lastGc = 0;
  const measureHeld = () => {
    if (!gc) return;
    gc();
    heldMb = Math.max(heldMb, process.memoryUsage().heapUsed / 2 ** 20);
    lastGc = performance.now();
  };
  // …and when the observation is complete (100 %): every observation is then held for the rules.
  const onProgress = (_stage: string, percent: number) => {
    if (percent >= 100 || performance.now() - lastGc > GC_EVERY_MS) measureHeld();
  };
  try {
    const run = await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(OUT, `work-${path.basename(file, ".mp4")}`), options: {}, onProgress });
    shots = run.shots.map((s) => ({ start: s.start_seconds, made: s.made }));
    timings = run.diagnostics.timings;
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
    timings = e.diagnostics?.timings;
  }
  const analysisS = (performance.now() - t0) / 1000;
  // maxRSS is in kilobytes; the model thread lives in this process, so it is counted.
  const cpu1 = cpuSeconds();
  const stages = timings && { scanS: timings.scanMs / 1000, watchS: timings.watchMs / 1000, postS: timings.postMs / 1000 };
  process.stdout.write(`\n${JSON.stringify({ analysisS, cpuS: cpu1.self + cpu1.children - cpu0.self - cpu0.children, selfCpuS: cpu1.self - cpu0.self, childrenCpuS: cpu1.children - cpu0.children, stages, peakMb: process.resourceUsage().maxRSS / 1024, heldMb, shots })}\n`);
}

interface ChildReport {
  analysisS: number;
  cpuS: number;
  selfCpuS: number;
  childrenCpuS: number;
  stages: { scanS: number; watchS: number; postS: number } | undefined;
  peakMb: number;
  heldMb: number;
  shots: ReleasedShot[];
}

/** The shots inside each copy of the base, on the copy's own timeline. */
function shotsPerCopy(shots: ReleasedShot[], baseSeconds: number, copies: number): ReleasedShot[][] {
  return Array.from({ length: copies }, (_, k) => shots.filter((s) => Math.floor(s.start / baseSeconds) === k).map((s) => ({ ...s, start: s.start - k * baseSeconds })));
}

const USAGE = `npx tsx bench/long-video.ts [--minutes 10,60] [--base-seconds 60] [--heap-mb 512]
  a 1080p30 base stitched from the tuning clips, joined into each length, each analysed in a fresh process:
  wall and CPU time per video second against the base alone, peak memory, the heap held, and every
  copy of the base compared with the base analysed alone
  --heap-mb  a V8 heap limit for the analysing process (as an operator sets with NODE_OPTIONS)`;

async function main() {
  const { args, arg } = commandLine(USAGE);
  if (args[0] === "--child") return child(args[1]);
  mkdirSync(OUT, { recursive: true });
  const baseSeconds = Number(arg("base-seconds") ?? "60");
  const minutes = (arg("minutes") ?? "10,60").split(",").map(Number);
  // A V8 heap limit for the analysing process (as an operator sets with NODE_OPTIONS), MB; none by default.
  const heapMb = arg("heap-mb") ?? "";
  const heapCap = heapMb ? [`--max-old-space-size=${Number(heapMb)}`] : [];
  const base = baseSegment(baseSeconds);
  const rows: Array<Record<string, string | number>> = [];
  let alone: ReleasedShot[] = [];
  let firstWall = 0, firstCpu = 0;
  // The base alone first: the shots every copy inside a longer video must repeat, and the reference speed.
  for (const [label, file, copies] of [["base alone", base, 1] as const, ...minutes.map((m) => [`${m} min`, longFile(base, baseSeconds, m), copiesIn(m, baseSeconds)] as const)]) {
    const out = execFileSync(process.execPath, [...heapCap, "--expose-gc", "--import", "tsx", import.meta.filename, "--child", file], { stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 });
    const r = JSON.parse(out.toString().trim().split("\n").at(-1)!) as ChildReport;
    const videoS = copies * baseSeconds;
    const wall = r.analysisS / videoS, cpu = r.cpuS / videoS;
    if (label === "base alone") [alone, firstWall, firstCpu] = [r.shots, wall, cpu];
    const perCopy = shotsPerCopy(r.shots, baseSeconds, copies);
    const counts = perCopy.map((c) => c.length);
    rows.push({
      video: label,
      "wall s": r.analysisS.toFixed(1),
      "wall s per video s": `${wall.toFixed(3)} (${(wall / firstWall).toFixed(2)}×)`,
      "CPU s per video s": `${cpu.toFixed(3)} (${(cpu / firstCpu).toFixed(2)}×)`,
      // Where the CPU goes: the process (analysis and model thread) and the ffmpeg children; then the
      // wall seconds of the stages per video second (the scan pass and the rim watch of the observation;
      // everything after it: the court pass, the rules, the result).
      "CPU s per video s: process / ffmpeg": `${(r.selfCpuS / videoS).toFixed(3)} / ${(r.childrenCpuS / videoS).toFixed(3)}`,
      "stage s per video s: scan / watch / after": r.stages ? [r.stages.scanS, r.stages.watchS, r.stages.postS].map((x) => (x / videoS).toFixed(3)).join(" / ") : "–",
      "peak memory MB": Math.round(r.peakMb),
      "heap held MB (most after a collection)": Math.round(r.heldMb),
      shots: r.shots.length,
      "shots per copy (min–max)": `${Math.min(...counts)}–${Math.max(...counts)}`,
      "copies same as base alone": `${perCopy.filter((c) => sameShots(c, alone)).length} / ${copies}`,
    });
    process.stderr.write(`${label}: ${JSON.stringify(rows.at(-1))}\n`);
  }
  printTable(rows);
}

runBench(main);
