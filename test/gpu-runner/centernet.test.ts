// The converted CenterNet against its source: the same TF.js graph run by TF.js itself (wasm backend,
// weights from memory) must give the same heatmap, wh and feature maps as our ONNX model on fixed
// inputs, and the decode helpers must reproduce the graph's own detections. Plus the extra-head
// contract, determinism of the build, and one real frame read from ../shared at run time.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { letterboxFor } from "../../gpu-runner/media/frames.ts";
import { runTool } from "../../gpu-runner/media/run.ts";
import { boxAt, channelPlane, loadCenterNet, peaks, type CenterNet } from "../../gpu-runner/vision/centernet.ts";
import { readModelInfo } from "../../gpu-runner/vision/model-metadata.ts";
import { buildCenterNet, DEFAULT_CENTERNET_PATH, readCenterNetSource, type CenterNetSourceFiles } from "../../models/build-models.ts";
import { COCO_CLASSES, PERSON_CHANNEL, RUNNER_CLASSES, SPORTS_BALL_CHANNEL } from "../../models/centernet/coco-classes.ts";
import type { TfjsGraphModel } from "../../models/centernet/convert.ts";
import { HeadDefinitionSchema, loadHeadDefinitions, type HeadDefinition } from "../../models/centernet/heads.ts";

const REAL_CLIP = path.resolve(import.meta.dirname, "../../../shared/realclips/clips/jbardelli_arena_shot_a.mp4");

/** Deterministic pseudo-random numbers (mulberry32), so the test images never change. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Three synthetic RGB24 images: smooth waves, blocky noise, and flat shapes on a gradient. */
function syntheticImage(kind: number, W: number, H: number): Uint8Array {
  const img = new Uint8Array(W * H * 3);
  const rand = rng(kind + 1);
  const blocks = Array.from({ length: 64 * 64 * 3 }, () => Math.floor(rand() * 256));
  const rects = Array.from({ length: 12 }, () => [rand() * W, rand() * H, 10 + rand() * 120, 10 + rand() * 160, rand() * 255, rand() * 255, rand() * 255]);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      for (let c = 0; c < 3; c++) {
        let v: number;
        if (kind === 0) v = 127.5 + 127.5 * Math.sin(0.05 * x * (c + 1) + 0.03 * y);
        else if (kind === 1) v = blocks[((Math.floor(y / 8) % 64) * 64 + (Math.floor(x / 8) % 64)) * 3 + c];
        else {
          v = ((x + y) / (W + H)) * 200 + 30 * c;
          for (const [rx, ry, rw, rh, ...rgb] of rects) if (x >= rx && x < rx + rw && y >= ry && y < ry + rh) v = rgb[c];
        }
        img[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
  return img;
}

/** One frame of the clip, letterboxed to 512×512 the way the runner's decoder does it. */
async function realFrame(t: number) {
  if (!existsSync(REAL_CLIP)) throw new Error(`${REAL_CLIP} is missing: this test reads ../shared/realclips at run time`);
  const lb = letterboxFor(1280, 720, 512, 512);
  const vf = `scale=${lb.innerWidth}:${lb.innerHeight}:flags=bilinear,pad=512:512:${lb.padX}:${lb.padY}:0x727272`;
  const rgb = await runTool(FFMPEG, ["-v", "error", "-ss", String(t), "-i", REAL_CLIP, "-frames:v", "1", "-vf", vf, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"]);
  expect(rgb.length).toBe(512 * 512 * 3);
  return { rgb: new Uint8Array(rgb), toFrame: (px: number, py: number) => [(px - lb.padX) / lb.scale, (py - lb.padY) / lb.scale] };
}

/**
 * The TF.js reference. The graph fixes its input to 512×512 (placeholder shape and the three
 * upsampling sizes), so other sizes get a copy with those patched; weights stay the package's bytes.
 */
async function tfjsReference(source: CenterNetSourceFiles, H = 512, W = 512): Promise<GraphModel> {
  const topology = structuredClone(source.graph.modelTopology) as TfjsGraphModel["modelTopology"];
  const weightData = source.weightData.slice();
  if (H !== 512 || W !== 512) {
    const input = topology.node.find((n) => n.op === "Placeholder")!;
    (input.attr!.shape.shape as { dim: { size: string }[] }).dim = [1, H, W, 3].map((d) => ({ size: String(d) }));
    const view = new DataView(weightData.buffer);
    let offset = 0;
    for (const spec of source.graph.weightsManifest.flatMap((g) => g.weights)) {
      const n = spec.shape.reduce((a, b) => a * b, 1);
      const m = /up_sampling2d(?:_(\d))?\/mul$/.exec(spec.name);
      if (m) {
        const factor = [16, 8, 4][Number(m[1] ?? 0)]; // sizes at 512: 32, 64, 128 = input / 16, 8, 4
        view.setInt32(offset, H / factor, true);
        view.setInt32(offset + 4, W / factor, true);
      }
      offset += n * (spec.quantization?.dtype === "float16" ? 2 : 4);
    }
  }
  return loadGraphModel(
    tf.io.fromMemory({
      modelTopology: topology as never,
      weightSpecs: source.graph.weightsManifest.flatMap((g) => g.weights) as never,
      weightData: weightData.buffer as ArrayBuffer,
    }),
  );
}

interface Reference {
  heatmap: Float32Array;
  wh: Float32Array;
  feature: Float32Array;
  detections?: Float32Array;
}

async function runReference(model: GraphModel, rgb: Uint8Array, H: number, W: number, withDetections: boolean): Promise<Reference> {
  const names = ["tower_0/keypoints", "tower_0/wh", "tower_0/CenternetHead/mul", ...(withDetections ? ["tower_0/detections"] : [])];
  const x = tf.tensor4d(Float32Array.from(rgb), [1, H, W, 3]);
  const outs = model.execute(x, names) as tf.Tensor[];
  const data = (await Promise.all(outs.map((o) => o.data()))) as Float32Array[];
  tf.dispose([x, ...outs]);
  return { heatmap: data[0], wh: data[1], feature: data[2], detections: data[3] };
}

/** Largest |NHWC reference − NCHW ONNX| and the largest reference magnitude. */
function maxDiff(nhwc: Float32Array, nchw: Float32Array, C: number, h: number, w: number) {
  expect(nchw.length).toBe(C * h * w);
  let diff = 0, max = 0;
  for (let c = 0; c < C; c++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const a = nhwc[(y * w + x) * C + c];
        diff = Math.max(diff, Math.abs(a - nchw[(c * h + y) * w + x]));
        max = Math.max(max, Math.abs(a));
      }
  return { diff, max };
}

/**
 * Float32 sums in another order (TF.js wasm/XNNPACK vs onnxruntime's MLAS) differ in the last bits;
 * measured here: heatmap ≤ 3e-6, wh ≤ 4.3e-3 (values to ~370), feature ≤ 1.2e-4 (values to ~5.5),
 * all ≤ 3e-5 of the largest value. A wrong padding, layout or resize mode is off by 1e-2 or more.
 */
function expectMatchesReference(ref: Reference, out: Awaited<ReturnType<CenterNet["run"]>>) {
  const { gridW: w, gridH: h } = out;
  const heat = maxDiff(ref.heatmap, out.heatmap, 80, h, w);
  const wh = maxDiff(ref.wh, out.wh, 4, h, w);
  const feature = maxDiff(ref.feature, out.feature!, 128, h, w);
  expect(heat.diff).toBeLessThan(1e-5);
  expect(wh.diff).toBeLessThan(1e-2);
  expect(wh.diff / wh.max).toBeLessThan(5e-5);
  expect(feature.diff).toBeLessThan(5e-4);
  expect(feature.diff / feature.max).toBeLessThan(1e-4);
  // Not a degenerate comparison of empty maps.
  expect(heat.max).toBeGreaterThan(0.05);
  expect(wh.max).toBeGreaterThan(50);
  expect(feature.max).toBeGreaterThan(1);
}

let source: CenterNetSourceFiles;
let reference512: GraphModel;
let centernet: CenterNet;

beforeAll(async () => {
  await tf.setBackend("wasm");
  await tf.ready();
  source = readCenterNetSource();
  reference512 = await tfjsReference(source);
  // The converter's output as of now (not the file npm ci built earlier; a test below ties the two).
  const modelPath = path.join(mkdtempSync(path.join(os.tmpdir(), "centernet-")), "centernet.onnx");
  writeFileSync(modelPath, buildCenterNet([], source, undefined, COCO_CLASSES));
  centernet = await loadCenterNet(modelPath, { withFeature: true, threads: 2 });
});

afterAll(async () => {
  await centernet?.release();
  reference512?.dispose();
});

describe("decode helpers", () => {
  it("peaks keeps 3×3 local maxima at or above the threshold, best first, ties in row-major order", () => {
    const W = 6, H = 5;
    const plane = new Float32Array(W * H);
    const set = (x: number, y: number, v: number) => (plane[y * W + x] = v);
    set(0, 0, 0.9); // corner: neighbours outside the grid do not count
    set(1, 0, 0.5); // next to a higher cell
    set(4, 1, 0.6);
    set(5, 1, 0.6); // equal neighbours: both kept, as max-pool equality keeps both
    set(2, 3, 0.3); // exactly at the threshold
    set(4, 4, 0.29); // below it
    expect(peaks(plane, W, H, 0.3, 10)).toEqual([
      { x: 0, y: 0, score: expect.closeTo(0.9, 6) },
      { x: 4, y: 1, score: expect.closeTo(0.6, 6) },
      { x: 5, y: 1, score: expect.closeTo(0.6, 6) },
      { x: 2, y: 3, score: expect.closeTo(0.3, 6) },
    ]);
    expect(peaks(plane, W, H, 0.3, 2).map((p) => [p.x, p.y])).toEqual([[0, 0], [4, 1]]);
    expect(peaks(new Float32Array(W * H), W, H, 0.1, 5)).toEqual([]);
    expect(() => peaks(plane, W + 1, H, 0.1, 5)).toThrow(/cells/);
  });

  it("boxAt reads left, top, right, bottom around the cell centre at stride 4", () => {
    const gridW = 3, gridH = 2, n = gridW * gridH;
    const wh = new Float32Array(4 * n);
    const i = 1 * gridW + 2; // cell (2, 1): centre (8, 4)
    [3, 2, 5, 7].forEach((v, k) => (wh[k * n + i] = v));
    expect(boxAt({ wh, gridW, gridH }, 2, 1)).toEqual([5, 2, 13, 11]);
    expect(() => boxAt({ wh, gridW, gridH }, 3, 0)).toThrow(/outside/);
    const heat = new Float32Array(2 * n).fill(1, n);
    expect(Array.from(channelPlane(heat, 1, gridW, gridH))).toEqual(new Array(n).fill(1));
    expect(() => channelPlane(heat, 2, gridW, gridH)).toThrow(/outside/);
  });
});

describe("CenterNet conversion", () => {
  it("builds byte-identical models, and npm ci installed exactly that build", () => {
    const a = buildCenterNet();
    const b = buildCenterNet();
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(readFileSync(DEFAULT_CENTERNET_PATH))).toBe(true);
  });

  it("describes itself in its metadata", async () => {
    const info = await readModelInfo(centernet.modelPath);
    expect(info.inputName).toBe("images");
    expect(info.inputDims).toEqual([1, -1, -1, 3]);
    expect(info.metadata.stride).toBe("4");
    const classes = JSON.parse(info.metadata.classes) as string[];
    expect(classes).toHaveLength(80);
    expect(classes[PERSON_CHANNEL]).toBe("person");
    expect(classes[SPORTS_BALL_CHANNEL]).toBe("sports ball");
    expect(SPORTS_BALL_CHANNEL).toBe(32);
    expect((JSON.parse(info.metadata.outputs) as { name: string }[]).map((o) => o.name).slice(0, 3)).toEqual(["heatmap", "wh", "feature"]);
    expect(info.metadata.source).toMatch(/^@vladmandic\/human-models@3\.0\.4 models\/centernet\.json \+ models\/centernet\.bin$/);
    expect(info.metadata.license).toMatch(/MIT/);
    expect(info.metadata.license).toMatch(/CC BY 4\.0/);
    expect(centernet.classes).toEqual([...COCO_CLASSES]);
  });

  it("ships only the heatmap classes the runner reads, each channel exactly the full model's", async () => {
    const shipped = await loadCenterNet(DEFAULT_CENTERNET_PATH, { threads: 2 });
    try {
      expect(shipped.classes).toEqual([...RUNNER_CLASSES]);
      for (const [W, H] of [[512, 320], [256, 256]]) {
        const rgb = syntheticImage(2, W, H);
        const [full, small] = [await centernet.run(rgb, W, H), await shipped.run(rgb, W, H)];
        const n = full.gridW * full.gridH;
        expect(small.heatmap).toHaveLength(RUNNER_CLASSES.length * n);
        RUNNER_CLASSES.forEach((name, k) => {
          const c = COCO_CLASSES.indexOf(name);
          expect(maxDiff(full.heatmap.subarray(c * n, (c + 1) * n), small.heatmap.subarray(k * n, (k + 1) * n), 1, 1, n).diff).toBeLessThan(1e-6);
        });
        expect(maxDiff(full.wh, small.wh, 1, 1, full.wh.length).diff).toBe(0);
      }
    } finally {
      await shipped.release();
    }
    expect(() => buildCenterNet([], source, undefined, ["person", "basketball hoop"])).toThrow(/distinct COCO class names/);
  });

  it("matches the TF.js reference on synthetic 512×512 images, and its decode matches the graph's detections", async () => {
    for (const kind of [0, 1, 2]) {
      const rgb = syntheticImage(kind, 512, 512);
      const ref = await runReference(reference512, rgb, 512, 512, true);
      const out = await centernet.run(rgb, 512, 512);
      expect([out.gridW, out.gridH]).toEqual([128, 128]);
      expectMatchesReference(ref, out);
      expectSameDetections(ref.detections!, out);
    }
  });

  it("matches the TF.js reference at another input size (dynamic H and W, here 256×384)", async () => {
    const H = 256, W = 384;
    const model = await tfjsReference(source, H, W);
    try {
      const rgb = syntheticImage(2, W, H);
      const ref = await runReference(model, rgb, H, W, false);
      const out = await centernet.run(rgb, W, H);
      expect([out.gridW, out.gridH]).toEqual([W / 4, H / 4]);
      expectMatchesReference(ref, out);
    } finally {
      model.dispose();
    }
  });

  it("rejects inputs that are not RGB24 at a multiple of 32", async () => {
    await expect(centernet.run(new Uint8Array(500 * 512 * 3), 500, 512)).rejects.toThrow(/multiple of 32/);
    await expect(centernet.run(new Uint8Array(10), 512, 512)).rejects.toThrow(/RGB bytes/);
  });
});

/**
 * Every detection of the graph's own post-processing (top 100 of the max-pool-masked heatmap, boxes
 * from wh at stride 4) with a score of at least 0.05 is a peak of ours with the same score and box.
 */
function expectSameDetections(detections: Float32Array, out: Awaited<ReturnType<CenterNet["run"]>>) {
  let checked = 0;
  for (let k = 0; k < 100; k++) {
    const [x1, y1, x2, y2, score, cls] = detections.subarray(k * 6, k * 6 + 6);
    if (score < 0.05) break;
    const found = peaks(channelPlane(out.heatmap, cls, out.gridW, out.gridH), out.gridW, out.gridH, score - 1e-5, 200)
      .filter((p) => Math.abs(p.score - score) < 1e-5)
      .map((p) => boxAt(out, p.x, p.y))
      .find((b) => Math.abs(b[0] - x1) < 0.02 && Math.abs(b[1] - y1) < 0.02 && Math.abs(b[2] - x2) < 0.02 && Math.abs(b[3] - y2) < 0.02);
    expect(found, `detection ${k}: class ${cls} score ${score} box ${[x1, y1, x2, y2].join(",")}`).toBeDefined();
    checked++;
  }
  return checked;
}

describe("CenterNet on a real frame", () => {
  it("matches the TF.js reference and finds the shooter and the ball where they are", async () => {
    // jbardelli_arena_shot_a at 3.6 s: the shooter on the right has just released; the ball is
    // above his head. Places checked by eye on the frame, in 1280×720 clip pixels.
    const shooter = [975, 380], ball = [930, 172];
    const frame = await realFrame(3.6);
    const ref = await runReference(reference512, frame.rgb, 512, 512, true);
    const out = await centernet.run(frame.rgb, 512, 512);
    expectMatchesReference(ref, out);
    expect(expectSameDetections(ref.detections!, out)).toBeGreaterThan(0);

    const persons = peaks(channelPlane(out.heatmap, PERSON_CHANNEL, out.gridW, out.gridH), out.gridW, out.gridH, 0.3, 10);
    expect(persons.length).toBeGreaterThanOrEqual(1);
    const [x1, y1] = frame.toFrame(...(boxAt(out, persons[0].x, persons[0].y).slice(0, 2) as [number, number]));
    const [x2, y2] = frame.toFrame(...(boxAt(out, persons[0].x, persons[0].y).slice(2) as [number, number]));
    expect(shooter[0]).toBeGreaterThan(x1);
    expect(shooter[0]).toBeLessThan(x2);
    expect(shooter[1]).toBeGreaterThan(y1);
    expect(shooter[1]).toBeLessThan(y2);

    // Ball scores are low on a letterboxed 1280×720 frame (the ball is ~10 px): 0.1 is the working threshold.
    const balls = peaks(channelPlane(out.heatmap, SPORTS_BALL_CHANNEL, out.gridW, out.gridH), out.gridW, out.gridH, 0.1, 10);
    const nearBall = balls.filter((p) => {
      const [fx, fy] = frame.toFrame(p.x * 4, p.y * 4);
      return Math.hypot(fx - ball[0], fy - ball[1]) < 30;
    });
    expect(nearBall.length).toBe(1);
  });
});

describe("extra heads", () => {
  /** A tiny head with known weights: 128 → 3 (relu) → 2 (sigmoid), with an input normalisation. */
  function tinyHead(): HeadDefinition {
    const rand = rng(42);
    const w = (o: number, i: number) => Array.from({ length: o }, () => Array.from({ length: i }, () => rand() * 2 - 1));
    return HeadDefinitionSchema.parse({
      name: "probe",
      description: "test head",
      attribution: "synthetic weights",
      input_normalization: { mean: Array.from({ length: 128 }, () => rand()), std: Array.from({ length: 128 }, () => 0.5 + rand()) },
      layers: [
        { weights: w(3, 128), bias: [0.1, -0.2, 0.3], activation: "relu" },
        { weights: w(2, 3), bias: [0.05, -0.05], activation: "sigmoid" },
      ],
    });
  }

  it("appends each head on the feature map as an output, with the normalisation folded in", async () => {
    const head = tinyHead();
    const dir = mkdtempSync(path.join(os.tmpdir(), "centernet-heads-"));
    const modelPath = path.join(dir, "centernet.onnx");
    writeFileSync(modelPath, buildCenterNet([head], source, undefined, COCO_CLASSES));
    const model = await loadCenterNet(modelPath, { withFeature: true, threads: 2 });
    try {
      expect(model.headNames).toEqual(["probe"]);
      const meta = (await readModelInfo(modelPath)).metadata;
      expect(JSON.parse(meta.heads)).toEqual([{ name: "probe", description: "test head", attribution: "synthetic weights" }]);
      const W = 256, H = 256;
      const out = await model.run(syntheticImage(1, W, H), W, H);
      const probe = out.heads.probe;
      const n = out.gridW * out.gridH;
      expect(probe).toHaveLength(2 * n);
      const { mean, std } = head.input_normalization!;
      let maxErr = 0;
      for (let i = 0; i < n; i++) {
        const x = Array.from({ length: 128 }, (_, c) => (out.feature![c * n + i] - mean[c]) / std[c]);
        const hidden = head.layers[0].weights.map((row, o) => Math.max(0, row.reduce((s, wv, c) => s + wv * x[c], head.layers[0].bias[o])));
        for (let o = 0; o < 2; o++) {
          const z = head.layers[1].weights[o].reduce((s, wv, c) => s + wv * hidden[c], head.layers[1].bias[o]);
          maxErr = Math.max(maxErr, Math.abs(1 / (1 + Math.exp(-z)) - probe[o * n + i]));
        }
      }
      expect(maxErr).toBeLessThan(1e-5);
      // The stock outputs are untouched by the extra head.
      const plain = await centernet.run(syntheticImage(1, W, H), W, H);
      expect(maxDiff(plain.heatmap, out.heatmap, 1, 1, out.heatmap.length).diff).toBe(0);
    } finally {
      await model.release();
    }
  });

  it("reads head files in name order and rejects bad definitions with the file and the reason", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "centernet-heads-"));
    expect(loadHeadDefinitions(path.join(dir, "absent"))).toEqual([]);
    const head = tinyHead();
    writeFileSync(path.join(dir, "b.json"), JSON.stringify({ ...head, name: "rim" }));
    writeFileSync(path.join(dir, "a.json"), JSON.stringify({ ...head, name: "ball2" }));
    writeFileSync(path.join(dir, "notes.txt"), "ignored");
    expect(loadHeadDefinitions(dir).map((h) => h.name)).toEqual(["ball2", "rim"]);

    writeFileSync(path.join(dir, "c.json"), JSON.stringify({ ...head, name: "heatmap" }));
    expect(() => loadHeadDefinitions(dir)).toThrow(/c\.json.*name is one of the model's own outputs/);
    writeFileSync(path.join(dir, "c.json"), JSON.stringify({ ...head, name: "rim" }));
    expect(() => loadHeadDefinitions(dir)).toThrow(/two heads are named "rim"/);
    writeFileSync(path.join(dir, "c.json"), JSON.stringify({ ...head, name: "bad", layers: [head.layers[0], { ...head.layers[1], weights: [[1, 2], [3, 4]] }] }));
    expect(() => loadHeadDefinitions(dir)).toThrow(/layers\.1\.weights takes 2 inputs but receives 3/);
    writeFileSync(path.join(dir, "c.json"), "{");
    expect(() => loadHeadDefinitions(dir)).toThrow(/c\.json: not valid JSON/);

    const narrow = HeadDefinitionSchema.parse({ name: "narrow", layers: [{ weights: [[1, 2]], bias: [0], activation: "none" }] });
    expect(() => buildCenterNet([narrow])).toThrow(/takes 2 channels, the feature map has 128/);
  });
});
