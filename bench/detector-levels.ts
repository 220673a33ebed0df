// Per-frame time of the default detector under each onnxruntime graph optimization level, measured
// side by side in one run (interleaved rounds, so machine load hits every level alike). It is why
// the default model's metadata asks for "extended" (see models/build-default-detector.ts).
//   npm run bench:detector -- [--frames 200] [--threads 1]
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ort from "onnxruntime-node";
import { decodeFrames } from "../gpu-runner/media/decode.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { generateGame } from "../scripts/synth/generate.ts";
import { resolveDetectorModel } from "../gpu-runner/vision/detector.ts";
import { createSession, type GraphOptimizationLevel } from "../gpu-runner/vision/session.ts";
import { commandLine } from "./lib.ts";

const USAGE = `npm run bench:detector -- [--frames 200] [--threads 1]
  per-frame time of the default detector under each onnxruntime graph optimization level, side by side`;
const { arg } = commandLine(USAGE);
const frames = Number(arg("frames") ?? "200");
const threads = Number(arg("threads") ?? "1");
const levels: GraphOptimizationLevel[] = ["all", "extended", "basic"];

async function main() {
  const model = resolveDetectorModel("landscape");
  const bytes = new Uint8Array(readFileSync(model));
  const sessions = await Promise.all(levels.map((level) => createSession(bytes, { threads, optimizationLevel: level, log: () => {} })));
  const [n, c, h, w] = [1, 3, 384, 640];
  // Real frames of a generated game (the footage the default model is built for), converted once.
  const video = path.resolve("bench/out/games/game-s201-wide-720p.mp4");
  if (!existsSync(video)) await generateGame({ seed: 201, seconds: 20, camera: "wide", size: "720p", out: path.dirname(video) });
  const info = await probe(video);
  const inputs: Float32Array[] = [];
  for await (const f of decodeFrames(video, info.width, info.height, { width: w, height: h, maxFps: 5 })) {
    const t = new Float32Array(n * c * h * w), plane = h * w;
    for (let i = 0, o = 0; i < plane; i++, o += 3) {
      t[i] = f.rgb[o] / 255;
      t[plane + i] = f.rgb[o + 1] / 255;
      t[2 * plane + i] = f.rgb[o + 2] / 255;
    }
    inputs.push(t);
    if (inputs.length >= 50) break;
  }
  let next = 0;
  const feed = () => ({ [sessions[0].inputNames[0]]: new ort.Tensor("float32", inputs[next++ % inputs.length], [n, c, h, w]) });
  for (const s of sessions) for (let i = 0; i < 5; i++) await s.run(feed());
  const total = levels.map(() => 0);
  const rounds = Math.max(1, Math.round(frames / 10));
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < sessions.length; k++) {
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) await sessions[k].run(feed());
      total[k] += performance.now() - t0;
    }
  const perFrame = total.map((t) => t / (rounds * 10));
  console.log(`\nbench/detector-levels: ${model}, ${w}×${h} input, ${rounds * 10} frames per level, ${threads} intra-op thread(s)\n`);
  console.log("| graph optimization level | ms per frame | vs \"all\" |");
  console.log("|---|---|---|");
  levels.forEach((level, k) => console.log(`| ${level} | ${perFrame[k].toFixed(2)} | ${(perFrame[k] / perFrame[0]).toFixed(2)}× |`));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
