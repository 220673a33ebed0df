// Second pass over a real video: every timeline frame, a square region of interest around each rim,
// cut from the full-resolution frame and scaled to a small model input. On a whole frame a distant
// ball is a few pixels wide and mostly missed; in a region seven rim widths wide it is about a fifth
// of the input, whatever the zoom, so the model sees it where it matters: going into (or not into)
// the rim. The rim head also runs there, at several times the whole frame's resolution.
import type { FrameSource, TimeRange } from "../../media/frames.ts";
import type { BasketballModel } from "../../vision/basketball.ts";
import { fromRegion, withData, type Detections } from "../../vision/detections.ts";
import { cropResize, type Rect, type RgbImage } from "../../vision/image.ts";
import { boxMotion, discMotion, lumaOf, moveImageInPlace, peakBlockMotion, registerShift, shiftImage } from "../../vision/motion.ts";
import type { RimTrack } from "../rules/hoop.ts";
import type { Box } from "../types.ts";

/**
 * The balls and rims the model saw in a rim's region, in source pixels. Each ball's `motion` is how
 * much its disc differs (mean absolute RGB, 0–255) from the region's running background, so a slow
 * ball (slow motion, a ball rolling on the rim) stands out as well as a fast one, while anything that
 * has stood still for a while does not.
 */
export type RimWatchDetections = Detections<{ motion: number }, "ball">;

export interface RimWatchSample {
  detections: RimWatchDetections;
  roi: Rect;
  /** Mean absolute change since the previous frame in the net (below the ring, within its width). */
  netMotion: number;
  /** Mean absolute difference from the running background over the whole region: camera shake and noise, what "moving" is measured against. */
  roiMotion: number;
  /**
   * How far (source pixels) the region's content stood from its running background: camera movement
   * that the rim's track (from the scan, a few times a second) did not follow. The rim at this frame
   * is the track's box moved by this much.
   */
  shift: { dx: number; dy: number };
  /** False when the model did not look at this frame (nothing in the region moved): `detections` is then empty. */
  looked: boolean;
}

/** The rim watch's settings: shares of the model input, frames, seconds, model scores, mean absolute RGB change (0–255). */
export const RIM_WATCH_DEFAULTS = {
  /** Largest camera movement between the rim's track and a frame that is followed, as a share of the region; 0 turns stabilisation off. */
  MAX_SHIFT_SHARE: 0.1,
  /** While nothing in a region moves, the model looks at one frame in this many; 1 looks at every frame. */
  CALM_EVERY_FRAMES: 3,
  /** Something moves: a 16×16 block of the lined-up region differs from the background by this much… */
  WAKE_MOTION: 12,
  /** …or a ball (scoring WAKE_BALL_SCORE) was seen in the last WAKE_BALL_S. */
  WAKE_BALL_SCORE: 0.25,
  WAKE_BALL_S: 0.5,
  /** Share of each new frame that joins the region's running background. */
  BACKGROUND_RATE: 0.2,
  /** The net's movement is measured from this far below the ring to this far (rim widths), within its width. */
  NET_TOP_RIM_WIDTHS: 0.1,
  NET_BOTTOM_RIM_WIDTHS: 1.2,
  /** ffmpeg shrinks the regions to about this many times the model input when that saves at least SHRINK_BELOW. */
  SHRINK_TO_INPUTS: 1.25,
  SHRINK_BELOW: 0.8,
};

export type RimWatchSettings = typeof RIM_WATCH_DEFAULTS;

export interface RimWatchOptions {
  fps: number;
  /** Model input side for the region (a multiple of 32). */
  input: number;
  /** Region side in rim widths. */
  widths: number;
  settings?: Partial<RimWatchSettings>;
  /** Only this stretch of the video (timeline frame 0 is its start). */
  range?: TimeRange;
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
export async function watchRims(source: FrameSource, model: BasketballModel, rims: RimTrack[], frames: number, opts: RimWatchOptions): Promise<RimWatchSample[][]> {
  const o = { ...RIM_WATCH_DEFAULTS, ...opts.settings };
  const out: RimWatchSample[][] = Array.from({ length: frames }, () => []);
  if (!rims.length) return out;
  const rectAt = (rim: RimTrack, f: number) => roiAround(rim.boxes[Math.min(f, rim.boxes.length - 1)], source.width, source.height, opts.widths);
  const all: Rect[] = [];
  for (const rim of rims) for (let f = 0; f < frames; f++) all.push(rectAt(rim, f));
  const cropRect = unionCrop(all, source.width, source.height);
  const whole = cropRect.x === 0 && cropRect.y === 0 && cropRect.w === source.width && cropRect.h === source.height;
  // Regions much larger than the model input are shrunk by ffmpeg first (on the decoder's core, and
  // less to pipe), to about 1.25× the input at the smallest region; the crop-and-resize below then
  // only finishes the job.
  // (a loop, not Math.min(...): a two-hour video has more regions than a call takes arguments)
  const smallest = all.reduce((m, r) => Math.min(m, r.w), Infinity);
  const shrink = Math.min(1, (o.SHRINK_TO_INPUTS * opts.input) / smallest);
  const scaleTo = shrink < o.SHRINK_BELOW ? { w: Math.max(2, 2 * Math.round((cropRect.w * shrink) / 2)), h: Math.max(2, 2 * Math.round((cropRect.h * shrink) / 2)) } : undefined;
  const fx = scaleTo ? scaleTo.w / cropRect.w : 1, fy = scaleTo ? scaleTo.h / cropRect.h : 1;
  const S = opts.input;
  const maxShift = Math.round(S * o.MAX_SHIFT_SHARE);
  // Per rim: the region's running average (a fifth of every new frame), the background a ball stands
  // out from, in the region's own coordinates whatever the camera did. The frame being prepared and
  // the one the model is looking at use alternate buffers (by frame parity): this frame's crop, its
  // content lined up with the background, and the background as it was before this frame joined it.
  const pair = <T>(make: () => T): [T, T] => [make(), make()];
  const state = rims.map(() => ({
    crop: pair(() => new Uint8Array(S * S * 3)),
    aligned: pair(() => new Uint8Array(S * S * 3)),
    backgroundBefore: pair(() => new Float32Array(S * S * 3)),
    background: new Float32Array(S * S * 3),
    scratch: new Float32Array(S * S * 3),
    /** Where the background has the rim (region input pixels): the track's place when it was last moved. */
    anchor: { x: 0, y: 0 },
    lastLook: -Infinity,
    lastBall: -Infinity,
  }));
  const calmEvery = o.CALM_EVERY_FRAMES;
  const wakeMotion = o.WAKE_MOTION;
  const luma = { image: new Float32Array(S * S), background: new Float32Array(S * S), a: new Float32Array((S / 4) ** 2), b: new Float32Array((S / 4) ** 2) };

  interface Prepared {
    roi: Rect;
    /** Source pixels per input pixel. */
    k: number;
    shift: { dx: number; dy: number };
    netMotion: number;
    roiMotion: number;
    looked: boolean;
    found: Promise<Detections> | null;
  }
  interface PreparedFrame {
    index: number;
    /** False on the first frame: nothing to compare with yet. */
    have: boolean;
    rims: Prepared[];
  }

  // Everything that does not need the model: cut the region, line it up with its background, measure
  // the net's and the region's movement, and let the frame join the background.
  const prepare = (image: RgbImage, index: number, have: boolean): PreparedFrame => ({
    index,
    have,
    rims: rims.map((rim, ri) => {
      const st = state[ri], p = index & 1;
      const roi = rectAt(rim, index);
      const crop = st.crop[p], aligned = st.aligned[p], previous = st.aligned[p ^ 1], bg = st.background;
      cropResize(image, { x: (roi.x - cropRect.x) * fx, y: (roi.y - cropRect.y) * fy, w: roi.w * fx, h: roi.h * fy }, S, S, 114, crop);
      const k = roi.w / S;
      const box = rim.boxes[Math.min(index, rim.boxes.length - 1)];
      // Where the track puts the rim in this frame's region.
      const rx = (box.cx - roi.x) / k, ry = (box.cy - roi.y) / k, rw = box.w / k;
      if (!have) {
        for (let i = 0; i < bg.length; i++) bg[i] = crop[i];
        st.anchor = { x: rx, y: ry };
      } else {
        // The region follows the track, but it stays inside the frame: near an edge a panning camera
        // takes the rim (and the track) across a region that stands still. The background moves with
        // the track's rim, so the shift below is only the camera's movement the track did not follow
        // (what the rim's boxes are corrected by), as it is wherever the region follows the rim; else a
        // pan near the edge reads as the region's whole content running away, past MAX_SHIFT_SHARE.
        const mx = Math.round(rx - st.anchor.x), my = Math.round(ry - st.anchor.y);
        if (mx || my) {
          moveImageInPlace(bg, S, mx, my, st.scratch);
          st.anchor = { x: st.anchor.x + mx, y: st.anchor.y + my };
        }
      }
      const shift = have && maxShift > 0 ? registerShift(lumaOf(crop, S, luma.image), lumaOf(bg, S, luma.background), S, maxShift, luma) : { dx: 0, dy: 0 };
      shiftImage(crop, S, shift.dx, shift.dy, bg, aligned);
      // In the aligned crop the rim stands where the track puts it.
      const netMotion = have ? boxMotion(aligned, previous, S, rx - rw / 2, ry + o.NET_TOP_RIM_WIDTHS * rw, rx + rw / 2, ry + o.NET_BOTTOM_RIM_WIDTHS * rw) : 0;
      const roiMotion = have ? boxMotion(aligned, bg, S, 0, 0, S - 1, S - 1) : 0;
      st.backgroundBefore[p].set(bg);
      for (let i = 0; i < bg.length; i++) bg[i] += o.BACKGROUND_RATE * (aligned[i] - bg[i]);
      return { roi, k, shift, netMotion, roiMotion, looked: false, found: null };
    }),
  });

  // The model is the cost: it looks where something moves, near a ball it saw, and now and then
  // regardless. Decided once the previous frame's answer is in (a ball it saw keeps it looking).
  const startLooking = (frame: PreparedFrame) => {
    frame.rims.forEach((r, ri) => {
      const st = state[ri], p = frame.index & 1;
      r.looked =
        !frame.have ||
        frame.index - st.lastBall <= opts.fps * o.WAKE_BALL_S ||
        frame.index - st.lastLook >= calmEvery ||
        peakBlockMotion(st.aligned[p], st.backgroundBefore[p], S) >= wakeMotion;
      if (!r.looked) return;
      st.lastLook = frame.index;
      r.found = model.detect(st.crop[p], S, S, ["ball", "rim"]);
      // Awaited in finish(); until then a failure must not count as unhandled.
      r.found.catch(() => {});
    });
  };

  const finish = async (frame: PreparedFrame) => {
    for (const [ri, r] of frame.rims.entries()) {
      const st = state[ri], p = frame.index & 1;
      const found = r.found ? await r.found : [];
      if (found.some((d) => d.className === "ball" && d.score >= o.WAKE_BALL_SCORE)) st.lastBall = frame.index;
      // Motion is measured in the lined-up region, where the boxes are before they are mapped back.
      const motionOf = (c: Detections[number]) => (frame.have ? discMotion(st.aligned[p], st.backgroundBefore[p], S, c.cx - r.shift.dx, c.cy - r.shift.dy, Math.max(2, c.w / 2)) : 0);
      out[frame.index].push({
        detections: withData(fromRegion(found, r.roi, r.k), "ball", (_, i) => ({ motion: motionOf(found[i]) })),
        roi: r.roi,
        netMotion: r.netMotion,
        roiMotion: r.roiMotion,
        shift: { dx: r.shift.dx * r.k, dy: r.shift.dy * r.k },
        looked: r.looked,
      });
    }
    opts.onFrame?.(frame.index);
  };

  // One frame in flight: while the model looks at frame i, this thread prepares frame i + 1 (with the
  // model on its own thread, vision/model-thread.ts, the two run at once). The order of every
  // decision is the same as one frame at a time.
  let inFlight: PreparedFrame | null = null;
  let have = false;
  for await (const f of source.regionFrames({ crop: whole ? undefined : cropRect, scaleTo, maxFps: opts.fps, range: opts.range, signal: opts.signal })) {
    // A frame past the probed length (rounding of the duration): extend the timeline's last rim position.
    if (f.index >= out.length) out.push([]);
    const next = prepare({ data: f.rgb, width: f.width, height: f.height }, f.index, have);
    have = true;
    if (inFlight) await finish(inFlight);
    startLooking(next);
    inFlight = next;
  }
  if (inFlight) await finish(inFlight);
  return out;
}
