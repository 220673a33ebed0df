import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ort from "onnxruntime-node";
import { nms, type Detection, type DetectionClass, type Detections } from "./detections.ts";
import { parseClassNames, readModelInfo } from "./model-metadata.ts";
import { createSession, optimizationLevelHint, type SessionSettings } from "./session.ts";

export interface Detector {
  readonly inputWidth: number;
  readonly inputHeight: number;
  readonly modelPath: string;
  readonly classNames: string[];
  /** `rgb` is an inputWidth×inputHeight RGB24 frame, already letterboxed; boxes in its pixels. */
  detect(rgb: Buffer): Promise<Detections>;
  /** The raw output row count per frame, for diagnostics. */
  readonly anchors: number;
}

// Class names used by common basketball and COCO exports, mapped onto what the logic needs.
const ALIASES: Record<string, DetectionClass> = {
  ball: "ball", basketball: "ball", "sports ball": "ball",
  hoop: "rim", rim: "rim", basket: "rim", "basketball hoop": "rim", net: "rim",
  person: "person", player: "person", people: "person",
};

export const DEFAULT_MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../models");

/** `dir/relative` where a model folder of one's own (HOOPS_MODEL_DIR) holds that file, else the committed model `committed`. */
export function ownModelOr(dir: string | undefined, relative: string, committed: string): string {
  if (dir && path.resolve(dir) !== DEFAULT_MODEL_DIR) {
    const own = path.join(dir, relative);
    if (existsSync(own)) return own;
  }
  return committed;
}

/**
 * A trained model dropped in as `detector.onnx` wins over the built-in default (used for every
 * orientation, letterboxed). The default comes in a landscape and a portrait input size.
 */
export function resolveDetectorModel(orientation: "landscape" | "portrait" = "landscape", dir = DEFAULT_MODEL_DIR): string {
  const trained = path.join(dir, "detector.onnx");
  if (existsSync(trained)) return trained;
  const portrait = path.join(dir, "default-detector-portrait.onnx");
  if (orientation === "portrait" && existsSync(portrait)) return portrait;
  return path.join(dir, "default-detector.onnx");
}

/** Set to choose the colour-filter fixture for the synthetic games (tests and benches only). */
export const SYNTHETIC_FIXTURE = "synthetic-fixture";

export type DetectorChoice =
  | { kind: "yolo"; modelPath: string; why: "trained model in the model directory" | "synthetic fixture requested" }
  | { kind: "centernet"; why: "default" };

/**
 * Which detector a run uses. A trained YOLO export dropped into the model directory always wins
 * (the model contract). The colour-filter fixture is used only when asked for explicitly, by an
 * analysis setting or `HOOPS_DETECTOR=synthetic-fixture` (vision/models.ts), which tests and benches
 * of the synthetic games set; a production runner never falls back to it. Otherwise: the trained CenterNet.
 */
export function chooseDetector(orientation: "landscape" | "portrait", requested: string | undefined, dir: string): DetectorChoice {
  if (existsSync(path.join(dir, "detector.onnx"))) return { kind: "yolo", modelPath: path.join(dir, "detector.onnx"), why: "trained model in the model directory" };
  if (requested === SYNTHETIC_FIXTURE) return { kind: "yolo", modelPath: resolveDetectorModel(orientation, dir), why: "synthetic fixture requested" };
  return { kind: "centernet", why: "default" };
}

export interface DetectorOptions extends SessionSettings {
  scoreThreshold?: Partial<Record<DetectionClass, number>>;
  iouThreshold?: number;
  log?: (m: string) => void;
}

/**
 * Loads any model that follows the Ultralytics YOLO ONNX export contract: one float input
 * 1×3×H×W (RGB, 0..1, letterboxed with gray 114), one output 1×(4+C)×N whose rows are
 * cx, cy, w, h in input pixels followed by C class scores, and class names in metadata `names`.
 */
export async function loadYoloDetector(modelPath = resolveDetectorModel(), opts: DetectorOptions = {}): Promise<Detector> {
  const info = await readModelInfo(modelPath);
  const classNames = parseClassNames(info.metadata.names);
  if (!classNames.length) throw new Error(`${modelPath}: metadata 'names' is missing; export with Ultralytics or add it`);
  const classes = classNames.map((n) => ALIASES[n.toLowerCase()] ?? null);
  if (!classes.includes("ball") || !classes.includes("rim")) throw new Error(`${modelPath}: needs ball and hoop classes, has ${classNames.join(", ")}`);
  const [, , h, w] = info.inputDims;
  // Dynamic-shape exports get a 16:9-friendly size divisible by 32.
  const inputHeight = h > 0 ? h : 384;
  const inputWidth = w > 0 ? w : 640;
  // A model may ask for a lower optimization level in its metadata (the default detector does: the
  // "all" level's blocked NCHWc layout made its 1×1 colour convolutions ~40 % slower on CPU).
  const optimizationLevel = optimizationLevelHint(info.metadata.graph_optimization_level);
  const session = await createSession(info.bytes, { threads: opts.threads, cpuOnly: opts.cpuOnly, log: opts.log, optimizationLevel });
  const outputName = session.outputNames[0];
  const thresholds: Record<DetectionClass, number> = { ball: 0.5, rim: 0.5, person: 0.3, ...opts.scoreThreshold };
  const iou = opts.iouThreshold ?? 0.45;
  const plane = inputWidth * inputHeight;
  const input = new Float32Array(3 * plane);
  let anchors = 0;
  return {
    inputWidth,
    inputHeight,
    modelPath,
    classNames,
    get anchors() {
      return anchors;
    },
    async detect(rgb) {
      if (rgb.length !== plane * 3) throw new Error(`frame is ${rgb.length} bytes, expected ${plane * 3}`);
      // HWC uint8 → CHW float; a tight loop is faster here than any tensor library round-trip.
      const inv = 1 / 255;
      for (let i = 0, o = 0; i < plane; i++, o += 3) {
        input[i] = rgb[o] * inv;
        input[plane + i] = rgb[o + 1] * inv;
        input[2 * plane + i] = rgb[o + 2] * inv;
      }
      const result = await session.run({ [info.inputName]: new ort.Tensor("float32", input, [1, 3, inputHeight, inputWidth]) });
      const out = result[outputName];
      const [, rows, n] = out.dims as number[];
      anchors = n;
      return decodeYoloOutput(out.data as Float32Array, rows, n, classes, thresholds, iou);
    },
  };
}

export function decodeYoloOutput(data: Float32Array, rows: number, n: number, classes: Array<DetectionClass | null>, thresholds: Record<DetectionClass, number>, iou: number): Detection[] {
  const C = rows - 4;
  const byClass: Record<DetectionClass, Detection[]> = { ball: [], rim: [], person: [] };
  for (let a = 0; a < n; a++) {
    let best = -1, bestScore = 0;
    for (let c = 0; c < C; c++) {
      const s = data[(4 + c) * n + a];
      if (s > bestScore && classes[c]) { bestScore = s; best = c; }
    }
    if (best < 0) continue;
    const className = classes[best]!;
    if (bestScore < thresholds[className]) continue;
    byClass[className].push({ className, score: bestScore, cx: data[a], cy: data[n + a], w: data[2 * n + a], h: data[3 * n + a] });
  }
  return [...nms(byClass.ball, iou), ...nms(byClass.rim, iou), ...nms(byClass.person, iou)];
}
