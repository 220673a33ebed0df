// Trains the basketball heads that sit on the converted CenterNet's shared feature map (COCO has
// no rim, and its "sports ball" misses most small basketballs): `rim` (centre heatmap of the rim
// ring), `rim_size` (log width/height of the rim at its centre) and `ball` (centre heatmap).
// Data: ../shared/datasets/basketball-det (CC BY 4.0; attribution in docs/analysis.md), read at
// training time only. Output: models/heads/basketball-heads.json, committed and folded into
// models/centernet.onnx by the model build.
//   npx tsx models/heads/train.ts [--base models/centernet-base.onnx] [--out models/heads/basketball-heads.json] [--quick]
// Deterministic for a given dataset and seed (one intra-op thread).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ort from "onnxruntime-node";
import { heatmapChannels } from "../../gpu-runner/vision/basketball.ts";
import { cropResize } from "../../gpu-runner/vision/image.ts";
import { readModelInfo } from "../../gpu-runner/vision/model-metadata.ts";
import { decodeImages, IMAGE_SIZE, loadDataset, type DatasetImage, type LabelBox } from "./dataset.ts";
import { seededRandom } from "../../gpu-runner/vision/random.ts";
import { Adam, focalLoss, forward, initMlp, toHeadJson, trainStep, type MlpWeights } from "./mlp.ts";

const INPUT = 512;
const STRIDE = 4;
const GRID = INPUT / STRIDE;
const CHANNELS = 128;

const args = process.argv.slice(2);
const arg = (k: string, d: string) => {
  const i = args.indexOf(`--${k}`);
  return i >= 0 ? args[i + 1] : d;
};
const QUICK = args.includes("--quick");
const BASE_MODEL = path.resolve(arg("base", "models/centernet.onnx"));
const OUT_DIR = path.resolve(arg("out", "models/heads"));
const SEED = Number(arg("seed", "7"));
const NEGATIVES_PER_PASS = Number(arg("negatives", "1000"));
const EPOCHS = Number(arg("epochs", QUICK ? "2" : "6"));
/** Keeps extracted samples in this folder between runs (a development aid: extraction is most of the time). */
const CACHE_DIR = args.includes("--cache") ? arg("cache", "") : "";

const ATTRIBUTION =
  'Trained by models/heads/train.ts (seed ' + SEED + ') on the train split of data derived from two CC BY 4.0 datasets by a Roboflow user (workspace "work-sxiv5"): "basketball" v1 (https://universe.roboflow.com/work-sxiv5/basketball-f2rlv) and "Robocon2025-Hoop-Detection" v3 (https://universe.roboflow.com/work-sxiv5/robocon2025-hoop-detection-2fr3q), redistributed in github.com/hong-l1/Robocon2025-Hoop-Detection-3; de-duplicated, classes remapped, re-split by recording session.';

/** A labelled object placed on a 512×512 model input, in input pixels. */
interface PlacedBox { cls: LabelBox["cls"]; cx: number; cy: number; w: number; h: number }
interface Tile { image: DatasetImage; x: number; y: number; w: number; h: number }

/**
 * The rim's ring, not the rim+net box most labels draw: the ring is the top of the box, about a
 * third of the rim's width tall when seen from the side. Real-clip truth marks the ring, and the
 * shot logic reasons about the ring.
 */
export function ringOf(b: PlacedBox): PlacedBox {
  const ringH = Math.min(b.h, 0.3 * b.w);
  return { cls: "rim", cx: b.cx, cy: b.cy - b.h / 2 + ringH / 2, w: b.w, h: ringH };
}

/** Lays images on a 512 canvas: one (letterboxed to its original aspect) or a k×k mosaic of shrunken ones. */
function compose(tiles: Array<{ image: DatasetImage; rgb: Uint8Array }>, k: number, r: () => number): { rgb: Uint8Array; boxes: PlacedBox[]; tiles: Tile[] } {
  const canvas = new Uint8Array(INPUT * INPUT * 3).fill(114);
  const cell = INPUT / k;
  const boxes: PlacedBox[] = [];
  const placed: Tile[] = [];
  tiles.forEach(({ image, rgb }, i) => {
    // Content keeps the original aspect; in mosaics it is also scaled by 0.7–1 and placed at random in its cell.
    const jitter = k === 1 ? 1 : 0.7 + 0.3 * r();
    const w = Math.round((image.aspect >= 1 ? cell : cell * image.aspect) * jitter);
    const h = Math.round((image.aspect >= 1 ? cell / image.aspect : cell) * jitter);
    const x0 = Math.floor((i % k) * cell + (k === 1 ? (cell - w) / 2 : r() * (cell - w)));
    const y0 = Math.floor(Math.floor(i / k) * cell + (k === 1 ? (cell - h) / 2 : r() * (cell - h)));
    const flip = r() < 0.5;
    const content = cropResize({ data: rgb, width: IMAGE_SIZE, height: IMAGE_SIZE }, { x: 0, y: 0, w: IMAGE_SIZE, h: IMAGE_SIZE }, w, h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const sx = flip ? w - 1 - x : x;
        const s = (y * w + sx) * 3, d = ((y0 + y) * INPUT + x0 + x) * 3;
        canvas[d] = content[s];
        canvas[d + 1] = content[s + 1];
        canvas[d + 2] = content[s + 2];
      }
    for (const b of image.boxes) {
      const cx = flip ? 1 - b.cx : b.cx;
      boxes.push({ cls: b.cls, cx: x0 + cx * w, cy: y0 + b.cy * h, w: b.w * w, h: b.h * h });
    }
    placed.push({ image, x: x0, y: y0, w, h });
  });
  return { rgb: canvas, boxes, tiles: placed };
}

/** Gaussian radius in grid cells for an object of w×h input pixels (spike: σ = max(0.7, 0.12·√area)). */
const sigmaCells = (w: number, h: number) => Math.max(0.7, (0.12 * Math.sqrt(w * h)) / STRIDE);

/** Target heatmap for the given centres, peak 1 at each centre's cell. */
function heatmap(objects: PlacedBox[]): Float32Array {
  const t = new Float32Array(GRID * GRID);
  for (const o of objects) {
    // The model's cell (x, y) is centred at (4x, 4y) in input pixels (as the source graph decodes boxes).
    const gx = Math.min(GRID - 1, Math.max(0, Math.round(o.cx / STRIDE))), gy = Math.min(GRID - 1, Math.max(0, Math.round(o.cy / STRIDE)));
    const s = sigmaCells(o.w, o.h), rad = Math.ceil(3 * s);
    for (let y = Math.max(0, gy - rad); y <= Math.min(GRID - 1, gy + rad); y++)
      for (let x = Math.max(0, gx - rad); x <= Math.min(GRID - 1, gx + rad); x++) {
        const v = x === gx && y === gy ? 1 : Math.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * s * s));
        if (v > t[y * GRID + x]) t[y * GRID + x] = v;
      }
  }
  return t;
}

/** Samples kept from one model pass: feature rows plus per-task targets. */
interface PassSamples {
  features: Float32Array; // n × CHANNELS
  n: number;
  target: Float32Array; // heatmap target
  /** Rim size regression target (log w, log h in grid cells) where the sample is a rim centre, else NaN. */
  size: Float32Array;
}

class Extractor {
  private constructor(
    private readonly session: ort.InferenceSession,
    /** COCO's "sports ball" channel in the base model's heatmap (32 of all 80; 1 in the shipped model, which keeps person and sports ball). */
    private readonly sportsBall: number,
  ) {}
  static async open(model: string) {
    const { sportsBall } = heatmapChannels(JSON.parse((await readModelInfo(model)).metadata.classes ?? "[]"));
    return new Extractor(await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all" }), sportsBall);
  }
  /** The feature map and COCO's "sports ball" scores (one GRID×GRID plane). */
  async run(rgb: Uint8Array): Promise<{ feature: Float32Array; ballHeat: Float32Array }> {
    const input = new Float32Array(rgb.length);
    for (let i = 0; i < rgb.length; i++) input[i] = rgb[i];
    const out = await this.session.run({ images: new ort.Tensor("float32", input, [1, INPUT, INPUT, 3]) }, ["feature", "heatmap"]);
    const plane = GRID * GRID;
    return { feature: out.feature.data as Float32Array, ballHeat: (out.heatmap.data as Float32Array).subarray(this.sportsBall * plane, (this.sportsBall + 1) * plane) };
  }
}

/**
 * Keeps every cell near an object (target > 0.02), the cells where COCO's "sports ball" fires
 * away from any labelled ball (hard negatives for the ball head), and random negatives.
 */
function samplePass(feature: Float32Array, ballHeat: Float32Array, target: Float32Array, size: Float32Array | null, valid: (cell: number) => boolean, hardFromCoco: boolean, r: () => number): PassSamples {
  const cells: number[] = [];
  const plane = GRID * GRID;
  for (let c = 0; c < plane; c++) if (target[c] > 0.02 && valid(c)) cells.push(c);
  if (hardFromCoco) {
    const hard: number[] = [];
    for (let c = 0; c < plane; c++) if (ballHeat[c] > 0.05 && target[c] <= 0.02 && valid(c)) hard.push(c);
    hard.sort((a, b) => ballHeat[b] - ballHeat[a]);
    cells.push(...hard.slice(0, 40));
  }
  for (let k = 0; k < NEGATIVES_PER_PASS; k++) {
    const c = Math.floor(r() * plane);
    if (target[c] <= 0.02 && valid(c)) cells.push(c);
  }
  const features = new Float32Array(cells.length * CHANNELS);
  const t = new Float32Array(cells.length), s = new Float32Array(cells.length * 2).fill(NaN);
  cells.forEach((c, i) => {
    for (let ch = 0; ch < CHANNELS; ch++) features[i * CHANNELS + ch] = feature[ch * plane + c];
    t[i] = target[c];
    if (size) {
      s[i * 2] = size[c * 2];
      s[i * 2 + 1] = size[c * 2 + 1];
    }
  });
  return { features, n: cells.length, target: t, size: s };
}

function sizeTargets(objects: PlacedBox[]): Float32Array {
  const s = new Float32Array(GRID * GRID * 2).fill(NaN);
  for (const o of objects) {
    const gx = Math.round(o.cx / STRIDE), gy = Math.round(o.cy / STRIDE);
    // The centre cell and its 4-neighbours: peaks land within a cell of the centre.
    for (const [dx, dy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const x = gx + dx, y = gy + dy;
      if (x < 0 || y < 0 || x >= GRID || y >= GRID) continue;
      s[(y * GRID + x) * 2] = Math.log(o.w / STRIDE);
      s[(y * GRID + x) * 2 + 1] = Math.log(o.h / STRIDE);
    }
  }
  return s;
}

type Task = "rim" | "ball";

interface Plan { tiles: DatasetImage[]; k: number }

/** Which canvases to build for a task: every image alone, plus 2×2, 3×3 and 4×4 mosaics (small objects). */
function plans(images: DatasetImage[], r: () => number): Plan[] {
  const shuffled = (xs: DatasetImage[]) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  const out: Plan[] = images.map((im) => ({ tiles: [im], k: 1 }));
  for (const [k, share] of [[2, 0.5], [3, 0.35], [4, 0.25]] as const) {
    const pool = shuffled(images);
    const count = Math.floor((pool.length * share) / (k * k)) * k * k;
    for (let i = 0; i + k * k <= count; i += k * k) out.push({ tiles: pool.slice(i, i + k * k), k });
  }
  return out;
}

async function extractCached(task: Task, images: DatasetImage[], extractor: Extractor, r: () => number): Promise<PassSamples[]> {
  if (!CACHE_DIR) return extract(task, images, extractor, r);
  const file = path.join(CACHE_DIR, `${task}-${QUICK ? "quick" : "full"}-${NEGATIVES_PER_PASS}.bin`);
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const out: PassSamples[] = [];
    let o = 0;
    while (o < buf.length) {
      const n = buf.readUInt32LE(o);
      o += 4;
      const take = (count: number) => {
        const a = new Float32Array(count);
        Buffer.from(a.buffer).set(buf.subarray(o, o + count * 4));
        o += count * 4;
        return a;
      };
      out.push({ n, features: take(n * CHANNELS), target: take(n), size: take(n * 2) });
    }
    return out;
  }
  const passes = await extract(task, images, extractor, r);
  const parts: Buffer[] = [];
  for (const p of passes) {
    const head = Buffer.alloc(4);
    head.writeUInt32LE(p.n);
    parts.push(head, Buffer.from(p.features.buffer, p.features.byteOffset, p.features.byteLength), Buffer.from(p.target.buffer), Buffer.from(p.size.buffer));
  }
  writeFileSync(file, Buffer.concat(parts));
  return passes;
}

async function extract(task: Task, images: DatasetImage[], extractor: Extractor, r: () => number): Promise<PassSamples[]> {
  const ps = plans(images, r);
  const files = [...new Set(ps.flatMap((p) => p.tiles.map((t) => t.file)))];
  const rgbByFile = new Map<string, Uint8Array>();
  // Decoding everything once keeps each canvas's images at hand (about 1.2 MB each).
  await decodeImages(files, (i, rgb) => void rgbByFile.set(files[i], rgb));
  const out: PassSamples[] = [];
  let done = 0;
  const t0 = performance.now();
  for (const p of ps) {
    const { rgb, boxes, tiles } = compose(p.tiles.map((im) => ({ image: im, rgb: rgbByFile.get(im.file)! })), p.k, r);
    const { feature, ballHeat } = await extractor.run(rgb);
    const objects = boxes.filter((b) => b.cls === task).map((b) => (task === "rim" ? ringOf(b) : b));
    const target = heatmap(objects);
    // Only tiles whose labels are complete for this task count; padding between them is a fair negative.
    const tileOf = (c: number) => {
      const x = (c % GRID) * STRIDE, y = Math.floor(c / GRID) * STRIDE;
      return tiles.find((t) => x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h) ?? null;
    };
    const valid = (c: number) => {
      const t = tileOf(c);
      return !t || (task === "rim" ? t.image.rimExhaustive : t.image.ballLabelled);
    };
    out.push(samplePass(feature, ballHeat, target, task === "rim" ? sizeTargets(objects) : null, valid, task === "ball", r));
    if (++done % 200 === 0) console.error(`[train] ${task}: ${done}/${ps.length} canvases (${((performance.now() - t0) / done).toFixed(0)} ms each)`);
  }
  return out;
}

function channelStats(passes: PassSamples[]): { mean: Float32Array; std: Float32Array } {
  const mean = new Float64Array(CHANNELS), sq = new Float64Array(CHANNELS);
  let n = 0;
  for (const p of passes)
    for (let i = 0; i < p.n; i++) {
      n++;
      for (let c = 0; c < CHANNELS; c++) {
        const v = p.features[i * CHANNELS + c];
        mean[c] += v;
        sq[c] += v * v;
      }
    }
  const m = new Float32Array(CHANNELS), s = new Float32Array(CHANNELS);
  for (let c = 0; c < CHANNELS; c++) {
    m[c] = mean[c] / n;
    s[c] = Math.sqrt(Math.max(1e-6, sq[c] / n - m[c] * m[c]));
  }
  return { mean: m, std: s };
}

/** Random negatives stand for all the cells they were drawn from, so their loss is scaled up. */
function negativeWeight(): number {
  return (GRID * GRID) / NEGATIVES_PER_PASS / 10;
}

function train(task: Task, passes: PassSamples[], kind: "heat" | "size", hidden: number, seed: number): MlpWeights {
  const index: Array<[number, number]> = [];
  passes.forEach((p, pi) => {
    for (let i = 0; i < p.n; i++) if (kind === "heat" || !Number.isNaN(p.size[i * 2])) index.push([pi, i]);
  });
  const { mean, std } = channelStats(passes);
  // Output biases start at the prior: a rare centre (p ≈ 0.01), or the mean log size.
  let meanLogSize = 0;
  if (kind === "size") {
    for (const [pi, i] of index) meanLogSize += (passes[pi].size[i * 2] + passes[pi].size[i * 2 + 1]) / 2;
    meanLogSize /= Math.max(1, index.length);
  }
  const m = initMlp(CHANNELS, hidden, kind === "heat" ? 1 : 2, mean, std, seed, kind === "heat" ? -4.6 : meanLogSize);
  const opt = new Adam([m.w1, m.b1, m.w2, m.b2], 1e-3);
  const r = seededRandom(seed + 1);
  const positives = index.filter(([pi, i]) => passes[pi].target[i] >= 0.999).length;
  const wNeg = negativeWeight();
  // The size task has a few thousand samples: small batches and more epochs give it enough steps.
  const batchSize = kind === "heat" ? 512 : 32;
  const epochs = kind === "heat" ? EPOCHS : EPOCHS * 5;
  const order = Int32Array.from(index.keys());
  const feats = (s: number) => ({ data: passes[index[s][0]].features, offset: index[s][1] * CHANNELS });
  const lossGrad = (s: number, out: Float32Array, d: Float32Array) => {
    const [pi, i] = index[s];
    const p = passes[pi];
    if (kind === "size") {
      let l = 0;
      for (let o = 0; o < 2; o++) {
        const e = out[o] - p.size[i * 2 + o];
        l += Math.abs(e);
        d[o] = Math.sign(e);
      }
      return l;
    }
    const t = p.target[i];
    const [l, g] = focalLoss(out[0], t);
    // Near-object cells are all kept; random negatives are a sample and weigh for the rest.
    const w = t > 0.02 ? 1 : wNeg;
    d[0] = g * w;
    return l * w;
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    // Cosine decay over the epochs.
    const lrScale = 0.5 * (1 + Math.cos((Math.PI * epoch) / epochs));
    let loss = 0;
    const batchesPerEpoch = Math.ceil(order.length / batchSize);
    const norm = kind === "heat" ? Math.max(1, (positives / index.length) * batchSize) : batchSize;
    for (let b = 0; b < batchesPerEpoch; b++) loss += trainStep(m, opt, order.subarray(b * batchSize, (b + 1) * batchSize), feats, lossGrad, norm, lrScale);
    console.error(`[train] ${task}/${kind} epoch ${epoch + 1}/${epochs}: loss ${(loss / order.length).toFixed(5)} (${index.length} samples, ${positives} centres)`);
  }
  return m;
}

/** Applies a heat head to every cell of a feature map (what the ONNX graph does at run time). */
export function applyHead(m: MlpWeights, feature: Float32Array, plane: number): Float32Array {
  const out = new Float32Array(plane * m.outputs);
  const x = new Float32Array(CHANNELS), hidden = new Float32Array(m.hidden), xn = new Float32Array(CHANNELS), o = new Float32Array(m.outputs);
  for (let c = 0; c < plane; c++) {
    for (let ch = 0; ch < CHANNELS; ch++) x[ch] = feature[ch * plane + c];
    forward(m, x, 0, hidden, xn, o);
    for (let k = 0; k < m.outputs; k++) out[k * plane + c] = o[k];
  }
  return out;
}

function peaks(map: Float32Array, thr: number, max = 20): Array<{ x: number; y: number; v: number }> {
  const out: Array<{ x: number; y: number; v: number }> = [];
  for (let y = 0; y < GRID; y++)
    for (let x = 0; x < GRID; x++) {
      const v = map[y * GRID + x];
      if (v < thr) continue;
      let isMax = true;
      for (let dy = -1; dy <= 1 && isMax; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy;
          if ((dx || dy) && xx >= 0 && yy >= 0 && xx < GRID && yy < GRID && map[yy * GRID + xx] > v) { isMax = false; break; }
        }
      if (isMax) out.push({ x: x * STRIDE, y: y * STRIDE, v });
    }
  return out.sort((a, b) => b.v - a.v).slice(0, max);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Held-out check: rim top-1 hits and ball recall / false hits per image, plain and as 2×2 mosaics (smaller objects). */
async function evaluate(split: "val" | "test", images: DatasetImage[], heads: { rim: MlpWeights; ball: MlpWeights }, extractor: Extractor, r: () => number) {
  const pool = images.filter((im) => im.split === split);
  const files = pool.map((im) => im.file);
  const rgbByFile = new Map<string, Uint8Array>();
  await decodeImages(files, (i, rgb) => void rgbByFile.set(files[i], rgb));
  const rows: Array<Record<string, string | number>> = [];
  for (const k of [1, 2]) {
    let rimImgs = 0, rimTop1 = 0, balls = 0;
    const thresholds = [0.1, 0.2, 0.3, 0.5];
    const headHits = thresholds.map(() => 0), headFalse = thresholds.map(() => 0), cocoHits = thresholds.map(() => 0), cocoFalse = thresholds.map(() => 0);
    let ballImgs = 0;
    for (let i = 0; i + k * k <= pool.length; i += k * k) {
      const tiles = pool.slice(i, i + k * k);
      const { rgb, boxes, tiles: placed } = compose(tiles.map((im) => ({ image: im, rgb: rgbByFile.get(im.file)! })), k, r);
      const { feature, ballHeat } = await extractor.run(rgb);
      const plane = GRID * GRID;
      // Rim: per single-rim exhaustive tile, the top peak inside the tile within one rim width of the ring.
      const rimMap = applyHead(heads.rim, feature, plane).map(sigmoid);
      for (const t of placed) {
        if (!t.image.rimExhaustive) continue;
        const rims = boxes.filter((b) => b.cls === "rim" && b.cx >= t.x && b.cx < t.x + t.w && b.cy >= t.y && b.cy < t.y + t.h).map(ringOf);
        if (rims.length !== 1) continue;
        rimImgs++;
        const inTile = peaks(rimMap, 0, 400).filter((p) => p.x >= t.x && p.x < t.x + t.w && p.y >= t.y && p.y < t.y + t.h);
        if (inTile.length && Math.hypot(inTile[0].x - rims[0].cx, inTile[0].y - rims[0].cy) <= rims[0].w) rimTop1++;
      }
      // Ball: peaks matched to labelled balls (centre within max(8 px, the ball's size)).
      const ballTiles = placed.filter((t) => t.image.ballLabelled);
      if (!ballTiles.length) continue;
      ballImgs += ballTiles.length;
      const inBallTile = (p: { x: number; y: number }) => ballTiles.some((t) => p.x >= t.x && p.x < t.x + t.w && p.y >= t.y && p.y < t.y + t.h);
      const gt = boxes.filter((b) => b.cls === "ball" && inBallTile({ x: b.cx, y: b.cy }));
      balls += gt.length;
      const score = (ps: Array<{ x: number; y: number; v: number }>, hits: number[], falses: number[]) =>
        thresholds.forEach((thr, ti) => {
          const used = new Set<number>();
          for (const p of ps.filter((q) => q.v >= thr && inBallTile(q))) {
            const j = gt.findIndex((g, gi) => !used.has(gi) && Math.hypot(p.x - g.cx, p.y - g.cy) <= Math.max(8, Math.sqrt(g.w * g.h)));
            if (j >= 0) { used.add(j); hits[ti]++; } else falses[ti]++;
          }
        });
      score(peaks(applyHead(heads.ball, feature, plane).map(sigmoid), 0.05, 50), headHits, headFalse);
      score(peaks(ballHeat, 0.05, 50), cocoHits, cocoFalse);
    }
    rows.push({ split, mosaic: `${k}×${k}`, "rim top-1 right": `${rimTop1}/${rimImgs}`, ...Object.fromEntries(thresholds.flatMap((thr, ti) => [[`ball R/FPI @${thr} head`, `${(headHits[ti] / Math.max(1, balls)).toFixed(2)} / ${(headFalse[ti] / Math.max(1, ballImgs)).toFixed(2)}`], [`coco @${thr}`, `${(cocoHits[ti] / Math.max(1, balls)).toFixed(2)} / ${(cocoFalse[ti] / Math.max(1, ballImgs)).toFixed(2)}`]])) });
  }
  return rows;
}

async function main() {
  const images = loadDataset();
  const extractor = await Extractor.open(BASE_MODEL);
  const r = seededRandom(SEED);
  const trainImages = (task: Task) => {
    const pool = images.filter((im) => im.split === "train" && (task === "rim" ? im.rimExhaustive : im.ballLabelled));
    return QUICK ? pool.filter((_, i) => i % 4 === 0) : pool;
  };
  const t0 = performance.now();
  const rimPasses = await extractCached("rim", trainImages("rim"), extractor, r);
  const rim = train("rim", rimPasses, "heat", 32, SEED);
  const rimSize = train("rim", rimPasses, "size", 16, SEED + 10);
  rimPasses.length = 0;
  const ballPasses = await extractCached("ball", trainImages("ball"), extractor, r);
  const ball = train("ball", ballPasses, "heat", 32, SEED + 20);
  ballPasses.length = 0;
  console.error(`[train] trained in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const heads = [
    toHeadJson("rim", rim, "sigmoid", "rim ring centre heatmap (stride 4)", ATTRIBUTION),
    toHeadJson("rim_size", rimSize, "none", "log(width / 4), log(height / 4) of the rim ring in input pixels, read at the rim peak", ATTRIBUTION),
    toHeadJson("ball", ball, "sigmoid", "basketball centre heatmap (stride 4)", ATTRIBUTION),
  ];
  for (const h of heads) {
    const file = path.join(OUT_DIR, `${h.name}.json`);
    writeFileSync(file, JSON.stringify(h) + "\n");
    console.error(`[train] wrote ${file}`);
  }
  for (const row of [...(await evaluate("val", images, { rim, ball }, extractor, seededRandom(99))), ...(await evaluate("test", images, { rim, ball }, extractor, seededRandom(99)))]) console.log(JSON.stringify(row));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
