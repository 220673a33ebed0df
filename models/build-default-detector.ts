// Builds models/default-detector.onnx: a hand-constructed (not trained) detector that follows the
// Ultralytics YOLO export contract — input "images" 1×3×384×640 RGB in 0..1, output "output0"
// 1×(4+C)×N with rows cx, cy, w, h (input pixels) then one score per class, class names in the
// "names" metadata. Its weights are colour filters for the synthetic generator's palette
// (scripts/synth/palette.ts) plus fixed moment pooling that turns a colour blob into a box. It works
// on generated footage only; drop a trained YOLO export into models/ for real video.
//   npx tsx models/build-default-detector.ts [out.onnx]
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { JERSEYS, PALETTE, type RGB } from "../scripts/synth/palette.ts";
import { GraphBuilder } from "./onnx-builder.ts";

const STRIDE = 8;
const CLASSES = ["ball", "hoop", "person"] as const;

interface Group {
  cls: number;
  colors: RGB[];
  /** Colour distance (0..255 units) at which the mask reaches zero. */
  tau: number;
  /** Pooling window in the group's own resolution; objects up to window-stride fit in one window. */
  window: number;
  /** 1 = full input resolution, 2 = after a 2×2 average (people are large, so half resolution is enough). */
  downsample: 1 | 2;
  minPixels: number;
  halfScorePixels: number;
  /** Maps the colour blob's box to the object's box: [w scale, h scale, cy shift in blob heights]. */
  boxTransform: [number, number, number];
  /** Blob fill ratio below which the score is scaled down (people only). */
  minFill?: number;
  /** Blob height/width below which the score is scaled down (people only). */
  minAspect?: number;
}

const GROUPS: Group[] = [
  { cls: 0, colors: [PALETTE.ball], tau: 70, window: 24, downsample: 1, minPixels: 3, halfScorePixels: 6, boxTransform: [1, 1, 0] },
  { cls: 1, colors: [PALETTE.rim], tau: 70, window: 32, downsample: 1, minPixels: 3, halfScorePixels: 8, boxTransform: [1, 1, 0] },
  // Shirt + shorts cover 0.36–0.82 of a player's height, so the full body is ~2.17× as tall,
  // centred lower; arms widen it.
  { cls: 2, colors: JERSEYS.map((j) => j.rgb), tau: 60, window: 28, downsample: 2, minPixels: 10, halfScorePixels: 60, boxTransform: [1.35, 2.17, 0.196], minFill: 0.45, minAspect: 1.2 },
];

/** Landscape input is 384×640; the portrait variant swaps them so a phone video is not shrunk into a third of the frame. */
/** mask = relu(1 - |x - c|² / tau²), written as 1×1 conv weights over [r, g, b, r², g², b²]. */
function colorMaskWeights(colors: RGB[], tau: number[]): { w: Float32Array; b: Float32Array } {
  const K = colors.length;
  const w = new Float32Array(K * 6), b = new Float32Array(K);
  colors.forEach((c, k) => {
    const cn = c.map((v) => v / 255);
    const t2 = (tau[k] / 255) ** 2;
    for (let ch = 0; ch < 3; ch++) {
      w[k * 6 + ch] = (2 * cn[ch]) / t2;
      w[k * 6 + 3 + ch] = -1 / t2;
    }
    b[k] = 1 - (cn[0] ** 2 + cn[1] ** 2 + cn[2] ** 2) / t2;
  });
  return { w, b };
}

/** Mask and its moments [m, m·x, m·y, m·x², m·y²] (5·K channels), coordinates in input pixels. */
function colorMoments(g: GraphBuilder, input: string, colors: RGB[], tau: number[], H: number, W: number, ds: number): string {
  const K = colors.length;
  const { w, b } = colorMaskWeights(colors, tau);
  const mask = g.op1("Relu", [g.op1("Conv", [input, g.const(w, [K, 6, 1, 1]), g.const(b, [K])], { kernel_shape: [1, 1] })]);
  // Pixel-centre coordinates broadcast as a row and a column, so the model stays a few kilobytes.
  const Xc = g.const(Array.from({ length: W }, (_, x) => (x + 0.5) * ds), [1, 1, 1, W]);
  const Yc = g.const(Array.from({ length: H }, (_, y) => (y + 0.5) * ds), [1, 1, H, 1]);
  const mX = g.op1("Mul", [mask, Xc]), mY = g.op1("Mul", [mask, Yc]);
  const mXX = g.op1("Mul", [mX, Xc]), mYY = g.op1("Mul", [mY, Yc]);
  return g.op1("Concat", [mask, mX, mY, mXX, mYY], { axis: 1 });
}

export function buildDefaultDetector(orientation: "landscape" | "portrait" = "landscape"): Uint8Array {
  const [INPUT_H, INPUT_W] = orientation === "portrait" ? [640, 384] : [384, 640];
  const g = new GraphBuilder();
  const C = CLASSES.length;
  const sq = g.op1("Mul", ["images", "images"]);
  const feat = g.op1("Concat", ["images", sq], { axis: 1 });
  const half = g.op1("AveragePool", [feat], { kernel_shape: [2, 2], strides: [2, 2] });
  const groupOutputs: string[] = [];
  // Full-resolution groups (ball, rim) share one conv and one 2×2 moment sum: reading the 6-channel
  // full-resolution input once instead of per group is most of the cost saved.
  const fullGroups = GROUPS.filter((grp) => grp.downsample === 1);
  const fullColors = fullGroups.flatMap((grp) => grp.colors);
  const fullTau = fullGroups.flatMap((grp) => grp.colors.map(() => grp.tau));
  // Moments are additive, so summing 2×2 blocks first is exact and makes the window pass 4× cheaper.
  const fullCoarse = fullColors.length
    ? g.op1("AveragePool", [colorMoments(g, feat, fullColors, fullTau, INPUT_H, INPUT_W, 1)], { kernel_shape: [2, 2], strides: [2, 2] })
    : "";
  let fullOffset = 0;
  for (const grp of GROUPS) {
    const ds = grp.downsample;
    const H = INPUT_H / ds, W = INPUT_W / ds;
    const s = STRIDE / ds;
    const K = grp.colors.length;
    let coarse: string;
    if (ds === 1) {
      const Kall = fullColors.length;
      const idx = [0, 1, 2, 3, 4].flatMap((m) => Array.from({ length: K }, (_, k) => m * Kall + fullOffset + k));
      coarse = g.op1("Gather", [fullCoarse, g.constI64(idx)], { axis: 1 });
      fullOffset += K;
    } else coarse = colorMoments(g, half, grp.colors, grp.colors.map(() => grp.tau), H, W, ds);
    const cs = ds === 1 ? 2 : 1;
    const k = grp.window / cs, sc = s / cs, p = (k - sc) / 2;
    // Separable window sums: O(k) per output instead of O(k²).
    const pooledH = g.op1("AveragePool", [coarse], { kernel_shape: [k, 1], strides: [sc, 1], pads: [p, 0, p, 0], count_include_pad: 1 });
    const pooled = g.op1("AveragePool", [pooledH], { kernel_shape: [1, k], strides: [1, sc], pads: [0, p, 0, p], count_include_pad: 1 });
    const [S0, SX, SY, SXX, SYY] = g.op("Split", [pooled, g.constI64([K, K, K, K, K])], { axis: 1 }, 5);
    const eps = g.const([1e-6], [1]);
    const den = g.op1("Add", [S0, eps]);
    const cx = g.op1("Div", [SX, den]), cy0 = g.op1("Div", [SY, den]);
    const varX = g.op1("Sub", [g.op1("Div", [SXX, den]), g.op1("Mul", [cx, cx])]);
    const varY = g.op1("Sub", [g.op1("Div", [SYY, den]), g.op1("Mul", [cy0, cy0])]);
    // A uniform blob of width w has variance w²/12; +1 keeps sqrt away from 0.
    const twelve = g.const([12], [1]), one = g.const([1], [1]);
    const bw = g.op1("Sqrt", [g.op1("Add", [g.op1("Mul", [g.op1("Relu", [varX]), twelve]), one])]);
    const bh = g.op1("Sqrt", [g.op1("Add", [g.op1("Mul", [g.op1("Relu", [varY]), twelve]), one])]);
    const [ws, hs, shift] = grp.boxTransform;
    const boxW = g.op1("Mul", [bw, g.const([ws], [1])]);
    const boxH = g.op1("Mul", [bh, g.const([hs], [1])]);
    const cy = g.op1("Add", [cy0, g.op1("Mul", [bh, g.const([shift], [1])])]);
    // Pixel count in the window → score n'/(n'+half), a peak where the window holds the whole blob.
    const pixels = g.op1("Mul", [S0, g.const([grp.window * grp.window], [1])]);
    const n = g.op1("Relu", [g.op1("Sub", [pixels, g.const([grp.minPixels], [1])])]);
    let score = g.op1("Div", [n, g.op1("Add", [n, g.const([grp.halfScorePixels], [1])])]);
    if (grp.minFill) {
      // Two players in one window make a big sparse blob with more pixels than either player;
      // scaling by how much of its box the blob fills lets NMS keep the single players instead.
      const fill = g.op1("Div", [g.op1("Mul", [pixels, g.const([ds * ds], [1])]), g.op1("Mul", [bw, bh])]);
      score = g.op1("Mul", [score, g.op1("Min", [g.op1("Mul", [fill, g.const([1 / grp.minFill], [1])]), one])]);
    }
    if (grp.minAspect) {
      // A standing player's shirt+shorts blob is taller than wide; two players side by side are not.
      const aspect = g.op1("Div", [bh, g.op1("Mul", [bw, g.const([grp.minAspect], [1])])]);
      score = g.op1("Mul", [score, g.op1("Min", [aspect, one])]);
    }
    const Ng = K * (H / s) * (W / s);
    const flat = (t: string) => g.op1("Reshape", [t, g.constI64([1, 1, Ng])]);
    const zeros = g.op1("Mul", [flat(score), g.const([0], [1])]);
    const rows = [flat(cx), flat(cy), flat(boxW), flat(boxH)];
    for (let c = 0; c < C; c++) rows.push(c === grp.cls ? flat(score) : zeros);
    groupOutputs.push(g.op1("Concat", rows, { axis: 1 }));
  }
  g.op1("Concat", groupOutputs, { axis: 2 }, "output0");
  const N = GROUPS.reduce((a, grp) => a + grp.colors.length * (INPUT_H / STRIDE) * (INPUT_W / STRIDE), 0);
  return g.encode({
    graphName: "hoops-default-detector",
    input: { name: "images", dims: [1, 3, INPUT_H, INPUT_W] },
    output: { name: "output0", dims: [1, 4 + C, N] },
    metadata: {
      // Same keys and formats as an Ultralytics export, so one loader handles both.
      names: `{${CLASSES.map((c, i) => `${i}: '${c}'`).join(", ")}}`,
      imgsz: `[${INPUT_H}, ${INPUT_W}]`,
      stride: String(STRIDE),
      task: "detect",
      description: "hand-constructed colour-filter detector for synthetic footage (not trained)",
      // Read by gpu-runner/vision/detector.ts: onnxruntime's "all" level rewrites this graph's 1×1
      // convolutions into the blocked NCHWc layout plus reorders, which measured ~40 % slower per
      // frame on CPU than "extended" (bench/detector-levels.ts).
      graph_optimization_level: "extended",
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = process.argv[2] ?? path.dirname(fileURLToPath(import.meta.url));
  for (const [name, orientation] of [["default-detector.onnx", "landscape"], ["default-detector-portrait.onnx", "portrait"]] as const) {
    const bytes = buildDefaultDetector(orientation);
    writeFileSync(path.join(dir, name), bytes);
    console.log(`wrote ${path.join(dir, name)} (${(bytes.length / 1e3).toFixed(1)} kB)`);
  }
}
