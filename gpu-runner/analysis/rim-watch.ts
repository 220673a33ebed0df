// Second pass over a real video: every timeline frame, a square region of interest around each rim,
// cut from the full-resolution frame and scaled to a small model input. On a whole frame a distant
// ball is a few pixels wide and mostly missed; in a region seven rim widths wide it is about a fifth
// of the input, whatever the zoom, so the model sees it where it matters: going into (or not into)
// the rim. The rim head also runs there, at several times the whole frame's resolution.
import { decodeRegion } from "../media/decode.ts";
import type { VideoInfo } from "../media/probe.ts";
import type { BasketballModel, Candidate } from "../vision/basketball.ts";
import { cropResize, type Rect } from "../vision/image.ts";
import type { RimTrack } from "./hoop.ts";
import type { Box } from "./types.ts";

export interface RimWatchSample {
  /**
   * In source pixels; `motion` is how much the ball's disc differs (mean absolute RGB, 0–255) from
   * the region's running background, so a slow ball (slow motion, a ball rolling on the rim) stands
   * out as well as a fast one, while anything that has stood still for a while does not.
   */
  balls: Array<Candidate & { motion: number }>;
  rims: Candidate[];
  roi: Rect;
  /** Mean absolute change since the previous frame in the net (below the ring, within its width). */
  netMotion: number;
  /** Mean absolute difference from the running background over the whole region: camera shake and noise, what "moving" is measured against. */
  roiMotion: number;
}

/** Mean absolute RGB difference between two S×S crops inside a disc (input pixels). */
export function discMotion(a: Uint8Array, b: ArrayLike<number>, S: number, cx: number, cy: number, r: number): number {
  let sum = 0, n = 0;
  const r2 = r * r;
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(S - 1, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(S - 1, Math.ceil(cx + r)); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 > r2) continue;
      const o = (y * S + x) * 3;
      sum += Math.abs(a[o] - b[o]) + Math.abs(a[o + 1] - b[o + 1]) + Math.abs(a[o + 2] - b[o + 2]);
      n += 3;
    }
  return n ? sum / n : 0;
}

/** Mean absolute RGB difference inside a rectangle (input pixels). */
export function boxMotion(a: Uint8Array, b: ArrayLike<number>, S: number, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0, n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(S - 1, Math.ceil(y1)); y++)
    for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(S - 1, Math.ceil(x1)); x++) {
      const o = (y * S + x) * 3;
      sum += Math.abs(a[o] - b[o]) + Math.abs(a[o + 1] - b[o + 1]) + Math.abs(a[o + 2] - b[o + 2]);
      n += 3;
    }
  return n ? sum / n : 0;
}

export interface RimWatchOptions {
  fps: number;
  /** Model input side for the region (a multiple of 32). */
  input: number;
  /** Region side in rim widths. */
  widths: number;
  signal?: AbortSignal;
  onFrame?: (frame: number) => void;
}

/**
 * The region watched around a rim: `widths` rim widths square, from about 4 widths above the ring
 * (the ball comes down from there) to 3 below (through the net), shifted inside the frame.
 */
export function roiAround(rim: Box, frameW: number, frameH: number, widths: number): Rect {
  const side = Math.min(Math.max(widths * rim.w, 128), Math.min(frameW, frameH));
  const cx = rim.cx, cy = rim.cy - (widths / 14) * rim.w;
  const x = Math.min(Math.max(cx - side / 2, 0), frameW - side);
  const y = Math.min(Math.max(cy - side / 2, 0), frameH - side);
  return { x, y, w: side, h: side };
}

/** The bounding box of all regions, so ffmpeg hands over only that part of each frame. */
function unionCrop(rects: Rect[], W: number, H: number): { x: number; y: number; w: number; h: number } {
  let x0 = W, y0 = H, x1 = 0, y1 = 0;
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w);
    y1 = Math.max(y1, r.y + r.h);
  }
  // Even offsets and sizes, one pixel of margin for the resampler.
  const ex = Math.max(0, Math.floor((x0 - 1) / 2) * 2), ey = Math.max(0, Math.floor((y0 - 1) / 2) * 2);
  const ew = Math.min(W - ex, Math.ceil((x1 + 1 - ex) / 2) * 2), eh = Math.min(H - ey, Math.ceil((y1 + 1 - ey) / 2) * 2);
  return { x: ex, y: ey, w: ew - (ew % 2), h: eh - (eh % 2) };
}

/** Per timeline frame, per rim (same order as `rims`): what the model saw in the region. */
export async function watchRims(videoPath: string, info: VideoInfo, model: BasketballModel, rims: RimTrack[], frames: number, opts: RimWatchOptions): Promise<RimWatchSample[][]> {
  const out: RimWatchSample[][] = Array.from({ length: frames }, () => []);
  if (!rims.length) return out;
  const rectAt = (rim: RimTrack, f: number) => roiAround(rim.boxes[Math.min(f, rim.boxes.length - 1)], info.width, info.height, opts.widths);
  const all: Rect[] = [];
  for (const rim of rims) for (let f = 0; f < frames; f++) all.push(rectAt(rim, f));
  const crop = unionCrop(all, info.width, info.height);
  const whole = crop.x === 0 && crop.y === 0 && crop.w === info.width && crop.h === info.height;
  const S = opts.input;
  // Two crops per rim, swapped every frame: the previous one is what motion is measured against.
  const bufs = rims.map(() => [new Uint8Array(S * S * 3), new Uint8Array(S * S * 3)]);
  // A running average of each region (a fifth of every new frame): the background a ball stands out from.
  const backgrounds = rims.map(() => new Float32Array(S * S * 3));
  const BACKGROUND_RATE = 0.2;
  let have = false;
  for await (const f of decodeRegion(videoPath, info.width, info.height, { crop: whole ? undefined : crop, maxFps: opts.fps, signal: opts.signal })) {
    if (f.index >= frames) {
      // A frame past the probed length (rounding of the duration): extend the timeline's last rim position.
      out.push([]);
    }
    const image = { data: f.rgb, width: f.width, height: f.height };
    for (const [ri, rim] of rims.entries()) {
      const roi = rectAt(rim, f.index);
      const [buf, prev] = bufs[ri];
      bufs[ri] = [prev, buf];
      cropResize(image, { x: roi.x - crop.x, y: roi.y - crop.y, w: roi.w, h: roi.h }, S, S, 114, buf);
      const found = await model.detect(buf, S, S, { balls: true, rims: true });
      const k = roi.w / S;
      const back = (c: Candidate): Candidate => ({ cx: roi.x + c.cx * k, cy: roi.y + c.cy * k, w: c.w * k, h: c.h * k, score: c.score });
      const bg = backgrounds[ri];
      if (!have) for (let i = 0; i < bg.length; i++) bg[i] = buf[i];
      const box = rim.boxes[Math.min(f.index, rim.boxes.length - 1)];
      const rx = (box.cx - roi.x) / k, ry = (box.cy - roi.y) / k, rw = box.w / k;
      out[f.index].push({
        balls: found.balls.map((c) => ({ ...back(c), motion: have ? discMotion(buf, bg, S, c.cx, c.cy, Math.max(2, c.w / 2)) : 0 })),
        rims: found.rims.map(back),
        roi,
        netMotion: have ? boxMotion(buf, prev, S, rx - rw / 2, ry + 0.1 * rw, rx + rw / 2, ry + 1.2 * rw) : 0,
        roiMotion: have ? boxMotion(buf, bg, S, 0, 0, S - 1, S - 1) : 0,
      });
      for (let i = 0; i < bg.length; i++) bg[i] += BACKGROUND_RATE * (buf[i] - bg[i]);
    }
    have = true;
    opts.onFrame?.(f.index);
  }
  return out;
}
