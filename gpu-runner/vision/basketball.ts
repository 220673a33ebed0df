// Basketball objects from one CenterNet inference: people from COCO's person heatmap, the ball from
// our trained `ball` head (and COCO's "sports ball", which finds big balls the head may miss), and
// rim candidates from the trained `rim` head with its `rim_size` regression, as one frame's
// `Detections` (vision/detections.ts). Everything is in the input image's pixels; callers map crops
// back to the frame (`fromLetterbox`, `fromRegion`).
import { boxAt, channelPlane, loadCenterNet, peaks, type CenterNet, type CenterNetOptions, type CenterNetOutput } from "./centernet.ts";
import { fromXyxy, type Detection, type DetectionClass, type Detections } from "./detections.ts";

export interface DecodeThresholds {
  person: number;
  ball: number;
  cocoBall: number;
  /** Rim candidates are ranked, not thresholded: a true rim scored 0.2–0.8 across clips. */
  rim: number;
  maxRims: number;
}

export const DEFAULT_THRESHOLDS: DecodeThresholds = { person: 0.3, ball: 0.15, cocoBall: 0.2, rim: 0.05, maxRims: 4 };


/** Every class the model finds; a pass that needs fewer asks for fewer (the rest is not decoded). */
export const ALL_CLASSES: readonly DetectionClass[] = ["person", "ball", "rim"];

export interface BasketballModel {
  /**
   * The objects of `classes` in an RGB24 image: people (best first), then balls (best first), then
   * rim candidates (best first), in the image's pixels.
   */
  detect(rgb: Uint8Array, width: number, height: number, classes?: readonly DetectionClass[]): Promise<Detections>;
}

export async function loadBasketballModel(modelPath?: string, opts: CenterNetOptions & { thresholds?: Partial<DecodeThresholds> } = {}): Promise<BasketballModel & { readonly net: CenterNet }> {
  const net = await loadCenterNet(modelPath, opts);
  for (const head of ["ball", "rim", "rim_size"])
    if (!net.headNames.includes(head)) throw new Error(`${net.modelPath} has no "${head}" head: rebuild it with npm run models:build (models/heads/*.json)`);
  const thr = { ...DEFAULT_THRESHOLDS, ...opts.thresholds };
  const channels = heatmapChannels(net.classes);
  return {
    net,
    async detect(rgb, width, height, classes = ALL_CLASSES) {
      const out = await net.run(rgb, width, height);
      return decodeBasketball(out, net.stride, thr, classes, channels);
    },
  };
}

/** Sub-cell peak position from the scores of its neighbours (a parabola through three cells). */
function refine(plane: Float32Array, gw: number, gh: number, x: number, y: number): [number, number] {
  const at = (xx: number, yy: number) => plane[Math.min(gh - 1, Math.max(0, yy)) * gw + Math.min(gw - 1, Math.max(0, xx))];
  const c = at(x, y);
  const dx = (at(x + 1, y) - at(x - 1, y)) / (2 * (2 * c - at(x - 1, y) - at(x + 1, y)) || 1);
  const dy = (at(x, y + 1) - at(x, y - 1)) / (2 * (2 * c - at(x, y - 1) - at(x, y + 1)) || 1);
  return [x + Math.max(-0.5, Math.min(0.5, dx)), y + Math.max(-0.5, Math.min(0.5, dy))];
}

/** Where the two COCO classes the runner reads sit in a model's heatmap (all 80 classes, or only those two). */
export interface HeatmapChannels {
  person: number;
  sportsBall: number;
}

/** COCO's own order: a model built with every class. */
export const COCO_HEATMAP_CHANNELS: HeatmapChannels = { person: 0, sportsBall: 32 };

export function heatmapChannels(classes: readonly string[]): HeatmapChannels {
  const person = classes.indexOf("person"), sportsBall = classes.indexOf("sports ball");
  if (person < 0 || sportsBall < 0) throw new Error(`the model's heatmap has no "person" or "sports ball" class (classes: ${classes.join(", ")}): rebuild it with npm run models:build`);
  return { person, sportsBall };
}

export function decodeBasketball(
  out: CenterNetOutput,
  stride: number,
  thr: DecodeThresholds,
  classes: readonly DetectionClass[],
  channels: HeatmapChannels = COCO_HEATMAP_CHANNELS,
): Detection[] {
  const { gridW: gw, gridH: gh } = out;
  const found: Detection[] = [];
  if (classes.includes("person")) {
    const plane = channelPlane(out.heatmap, channels.person, gw, gh);
    for (const p of peaks(plane, gw, gh, thr.person, 40)) found.push(fromXyxy("person", boxAt(out, p.x, p.y, stride), p.score));
  }
  if (classes.includes("ball")) {
    // Our head first; COCO's sports ball adds balls where the head is silent (a cell or more away).
    const head = channelPlane(out.heads.ball, 0, gw, gh);
    const coco = channelPlane(out.heatmap, channels.sportsBall, gw, gh);
    const balls: Detection[] = [];
    const ballSize = out.heads.ball_size;
    for (const p of peaks(head, gw, gh, thr.ball, 20)) {
      const [rx, ry] = refine(head, gw, gh, p.x, p.y);
      let side: number;
      if (ballSize) {
        // Our own size head (log sizes in grid cells); a ball is round, so the mean of both.
        const i = p.y * gw + p.x;
        side = stride * Math.exp((ballSize[i] + ballSize[gw * gh + i]) / 2);
      } else {
        // COCO's size regression is class-agnostic: beside a bigger object it answers that one's size.
        const b = boxAt(out, p.x, p.y, stride);
        side = Math.max(2, ((b[2] - b[0]) + (b[3] - b[1])) / 2);
      }
      balls.push({ className: "ball", cx: rx * stride, cy: ry * stride, w: side, h: side, score: p.score });
    }
    for (const p of peaks(coco, gw, gh, thr.cocoBall, 10)) {
      if (balls.some((f) => Math.hypot(f.cx - p.x * stride, f.cy - p.y * stride) <= 2 * stride)) continue;
      const c = fromXyxy("ball", boxAt(out, p.x, p.y, stride), p.score);
      const side = (c.w + c.h) / 2;
      balls.push({ ...c, w: side, h: side });
    }
    found.push(...balls.sort((a, b) => b.score - a.score));
  }
  if (classes.includes("rim")) {
    const plane = channelPlane(out.heads.rim, 0, gw, gh);
    const size = out.heads.rim_size;
    for (const p of peaks(plane, gw, gh, thr.rim, thr.maxRims)) {
      const [rx, ry] = refine(plane, gw, gh, p.x, p.y);
      const i = p.y * gw + p.x;
      found.push({ className: "rim", cx: rx * stride, cy: ry * stride, w: stride * Math.exp(size[i]), h: stride * Math.exp(size[gw * gh + i]), score: p.score });
    }
  }
  return found;
}
