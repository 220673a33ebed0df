// Per-frame time of the converted CenterNet (models/centernet.onnx) in onnxruntime-node, side by side in
// one run: input size (whole frames at 512, crops at 384 and 256), intra-op threads, graph optimization
// level, symbolic vs fixed input shape, fetching the 128-channel feature map or not, and the heatmap's
// classes (the 2 the runner reads, as shipped, or all 80). Rounds are
// interleaved so machine load hits every configuration alike. Inputs are real frames (letterboxed to
// each size) read from ../shared/realclips at run time; the model is built in memory by the converter.
//   npm run bench:centernet -- [--rounds 10] [--per-round 3] [--sizes 512,384,256] [--threads 1,2] [--levels all,extended] [--classes 2,80]
import { existsSync } from "node:fs";
import path from "node:path";
import ort from "onnxruntime-node";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { letterboxFor } from "../gpu-runner/media/frames.ts";
import { runTool } from "../gpu-runner/media/run.ts";
import { createSession, type GraphOptimizationLevel } from "../gpu-runner/vision/session.ts";
import { buildCenterNet, readCenterNetSource } from "../models/build-models.ts";
import { COCO_CLASSES, RUNNER_CLASSES } from "../models/centernet/coco-classes.ts";
import { commandLine, printTable, runBench } from "./lib.ts";

const USAGE = `npm run bench:centernet -- [--rounds 10] [--per-round 3] [--sizes 512,384,256] [--threads 1,2] [--levels all,extended] [--classes 2,80]
  per-frame time of the converted CenterNet in onnxruntime-node, every configuration side by side in interleaved rounds`;
const { arg } = commandLine(USAGE);
const rounds = Number(arg("rounds") ?? "10");
const perRound = Number(arg("per-round") ?? "3");
const sizes = (arg("sizes") ?? "512,384,256").split(",").map(Number);
const threadCounts = (arg("threads") ?? "1,2").split(",").map(Number);
const levels = (arg("levels") ?? "all,extended").split(",") as GraphOptimizationLevel[];
const classCounts = (arg("classes") ?? "2").split(",").map(Number);
const CLIP = path.resolve("../shared/realclips/clips/jbardelli_arena_shot_a.mp4");
const FRAME_TIMES = [0.5, 1.5, 2.5, 3.6, 4.5, 5.5];

async function frames(size: number): Promise<Float32Array[]> {
  if (!existsSync(CLIP)) throw new Error(`${CLIP} is missing: this bench reads ../shared/realclips at run time`);
  const lb = letterboxFor(1280, 720, size, size);
  const vf = `scale=${lb.innerWidth}:${lb.innerHeight}:flags=bilinear,pad=${size}:${size}:${lb.padX}:${lb.padY}:0x727272`;
  return Promise.all(
    FRAME_TIMES.map(async (t) => {
      const rgb = await runTool(FFMPEG, ["-v", "error", "-ss", String(t), "-i", CLIP, "-frames:v", "1", "-vf", vf, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"]);
      const f = new Float32Array(rgb.length);
      f.set(rgb);
      return f;
    }),
  );
}

interface Config {
  size: number;
  threads: number;
  level: GraphOptimizationLevel;
  shape: "dynamic" | "fixed";
  feature: boolean;
  classes: number;
  session: ort.InferenceSession;
  times: number[];
}

async function main() {
  const source = readCenterNetSource();
  const classList = (n: number) => (n === COCO_CLASSES.length ? COCO_CLASSES : RUNNER_CLASSES);
  const inputs = new Map<number, Float32Array[]>();
  for (const s of sizes) inputs.set(s, await frames(s));
  const sessions = new Map<string, ort.InferenceSession>();
  const session = async (shape: "dynamic" | "fixed", size: number, threads: number, level: GraphOptimizationLevel, classes: number) => {
    const key = `${shape}:${shape === "fixed" ? size : ""}:${threads}:${level}:${classes}`;
    let s = sessions.get(key);
    if (!s) {
      const bytes = buildCenterNet([], source, shape === "fixed" ? { width: size, height: size } : undefined, classList(classes));
      sessions.set(key, (s = await createSession(bytes, { threads, optimizationLevel: level, log: () => {} })));
    }
    return s;
  };
  const configs: Config[] = [];
  for (const size of sizes)
    for (const threads of threadCounts)
      for (const level of levels)
        for (const shape of ["dynamic", "fixed"] as const)
          for (const feature of [false, true])
            for (const classes of classCounts)
              configs.push({ size, threads, level, shape, feature, classes, session: await session(shape, size, threads, level, classes), times: [] });

  let next = 0;
  const runOnce = async (c: Config) => {
    const frame = inputs.get(c.size)![next++ % FRAME_TIMES.length];
    const fetches = c.feature ? ["heatmap", "wh", "feature"] : ["heatmap", "wh"];
    const t0 = performance.now();
    await c.session.run({ images: new ort.Tensor("float32", frame, [1, c.size, c.size, 3]) }, fetches);
    return performance.now() - t0;
  };
  for (const c of configs) for (let i = 0; i < 3; i++) await runOnce(c);
  for (let r = 0; r < rounds; r++)
    // Each round starts at another configuration, so no one always runs right after a session switch.
    for (let k = 0; k < configs.length; k++) {
      const c = configs[(k + r * 7) % configs.length];
      for (let i = 0; i < perRound; i++) c.times.push(await runOnce(c));
    }

  const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];
  const median = (xs: number[]) => quantile(xs, 0.5);
  const base = new Map<string, number>();
  for (const c of configs) if (c.level === "all" && c.shape === "dynamic" && !c.feature && c.classes === classCounts[0]) base.set(`${c.size}:${c.threads}`, median(c.times));
  console.log(`\nbench/centernet: ${rounds * perRound} frames per configuration (real frames, letterboxed), onnxruntime-node ${ort.env.versions.common}, CPU\n`);
  printTable(
    configs.map((c) => ({
      input: `${c.size}×${c.size}`,
      threads: c.threads,
      level: c.level,
      shape: c.shape,
      fetch: c.feature ? "heatmap+wh+feature" : "heatmap+wh",
      classes: c.classes,
      "median ms": median(c.times),
      // The fast tail: on a shared machine, other processes' load inflates the median, not this.
      "p10 ms": quantile(c.times, 0.1),
      [`vs all/dynamic/no feature/${classCounts[0]} classes (median)`]: `${(median(c.times) / base.get(`${c.size}:${c.threads}`)!).toFixed(2)}×`,
    })),
  );
  for (const s of sessions.values()) await s.release();
}

runBench(main);
