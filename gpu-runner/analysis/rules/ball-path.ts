// One ball path from noisy per-frame ball candidates on real footage. Two things go wrong on real
// video: things that look like a ball and never move (a ball resting on the floor, a logo, a
// watermark, a lamp) and single-frame false hits. The first are removed by persistence (a place
// that fires in much of a few seconds is not a flying ball), the second by motion continuity. The
// input is each frame's ball detections (vision/detections.ts, `ofClass(detections, "ball")`).
import { withMinScore, type DetectionOf } from "../../vision/detections.ts";
import { fillGaps, type BallObs } from "./tracks.ts";

/** Thresholds of the ball path, in ball sizes (`scale`), seconds, frames or model scores. */
export const BALL_PATH_DEFAULTS = {
  /** A place that holds a candidate in at least this share of the frames around it is static. */
  STATIC_SHARE: 0.3,
  /** Window (seconds each side) for the static test. */
  STATIC_WINDOW_S: 2,
  /** "The same place": within this many ball sizes. */
  STATIC_RADIUS_BALLS: 0.5,
  /** A candidate at a static place stays when it scores at least this… */
  STATIC_OVERRIDE_SCORE: 0.3,
  /** …and this many times what that place usually scores. */
  STATIC_OVERRIDE_RATIO: 1.4,
  /** Gaps up to this many frames are interpolated. */
  MAX_GAP_FRAMES: 2,
  /** Candidates scoring less are ignored. */
  MIN_SCORE: 0,
  /** Candidates scoring less than this may extend a tracklet but never start one (hysteresis). */
  SEED_SCORE: 0,
  /**
   * Expected size range, in ball sizes: a candidate's size is clamped into it. The size comes from
   * COCO's class-agnostic box regression, which beside a bigger object (a backboard behind the ball)
   * answers that object's size; the ball's position is right all the same.
   */
  SIZE_RANGE_BALLS: [0, Infinity] as [number, number],
  /** Fastest ball, ball sizes a second (about 12 m/s at 0.24 m a ball). */
  MAX_SPEED_BALLS_PER_S: 50,
  /** A tracklet unseen for more than this many frames ends. */
  LINK_GAP_FRAMES: 3,
  /** After two sightings the next must land within max(one ball, this share of the distance travelled) of where the velocity points. */
  PREDICTION_GATE_SHARE: 0.5,
  /** A single sighting counts only from this score, at half its worth. */
  SINGLE_SIGHTING_SCORE: 0.4,
  /** A step "moved" when it covered at least this many ball sizes; other steps count a quarter. */
  MOVED_BALLS: 0.3,
  STILL_STEP_WORTH: 0.25,
  /** A steady tracklet moves at least this many ball sizes a frame… */
  STEADY_STEP_BALLS: 1 / 3,
  /** …and its end-to-end distance is at least this share of its path length. */
  STEADY_STRAIGHTNESS: 0.8,
};

export type BallPathSettings = typeof BALL_PATH_DEFAULTS;

export interface BallPathOptions {
  fps: number;
  /** Typical ball size in pixels here (a rim is about twice as wide as the ball), for distances. */
  scale: number;
  settings?: Partial<BallPathSettings>;
}

/**
 * Removes candidates that sit still: those with a candidate within half a ball in much of the
 * frames around them. A place that always fires a little (a net, a logo) can still hold the real
 * ball for a moment: a candidate that scores clearly above what that place usually scores stays.
 */
export function dropStatic<C extends DetectionOf<"ball">>(perFrame: ReadonlyArray<ReadonlyArray<C>>, opts: BallPathOptions): C[][] {
  const o = { ...BALL_PATH_DEFAULTS, ...opts.settings };
  const share = o.STATIC_SHARE;
  const half = Math.max(2, Math.round(o.STATIC_WINDOW_S * opts.fps));
  const radius = Math.max(2, opts.scale * o.STATIC_RADIUS_BALLS);
  return perFrame.map((cands, f) =>
    cands.filter((c) => {
      const present: number[] = [];
      let total = 0;
      for (let g = Math.max(0, f - half); g <= Math.min(perFrame.length - 1, f + half); g++) {
        if (g === f) continue;
        total++;
        let best = 0;
        for (const other of perFrame[g]) if (Math.hypot(other.cx - c.cx, other.cy - c.cy) <= radius && other.score > best) best = other.score;
        if (best > 0) present.push(best);
      }
      if (total === 0 || present.length / total < share) return true;
      present.sort((a, b) => a - b);
      return c.score >= Math.max(o.STATIC_OVERRIDE_SCORE, o.STATIC_OVERRIDE_RATIO * present[present.length >> 1]);
    }),
  );
}

interface Tracklet<C extends DetectionOf<"ball"> = DetectionOf<"ball">> {
  frames: number[];
  obs: C[];
}

/**
 * Links candidates frame to frame into tracklets, then keeps the best set of tracklets that do not
 * overlap in time. Linking follows the ball's motion: after two sightings the next one must land
 * near where the last velocity points (within a ball size, or half the distance travelled), so a
 * tracklet cannot hop between two look-alikes. A tracklet is worth the sum of its scores, counting
 * fully only the sightings where the ball moved: a flickering static look-alike is worth little, a
 * flight a lot. Single sightings count only when confident.
 */
export function buildBallPath<C extends DetectionOf<"ball">>(
  perFrame: ReadonlyArray<ReadonlyArray<C>>,
  /**
   * `visiblyMoving`: whether a candidate stood out from what was there before (its disc differs from
   * the region's running background). Where given, only such a candidate starts a tracklet (any may
   * extend one), and a short tracklet of such candidates only that moved on every step need not move
   * one straight way (see steady).
   */
  opts: BallPathOptions & { visiblyMoving?: (c: C, frame: number) => boolean },
): Array<BallObs | null> {
  const o = { ...BALL_PATH_DEFAULTS, ...opts.settings };
  const [lo, hi] = o.SIZE_RANGE_BALLS;
  const clampSize = (v: number) => Math.min(hi * opts.scale, Math.max(lo * opts.scale, v));
  const plausible: C[][] = perFrame.map((cs) => withMinScore(cs, o.MIN_SCORE).map((c) => ({ ...c, w: clampSize(c.w), h: clampSize(c.h) })));
  const moving = dropStatic(plausible, opts);
  const maxStep = (o.MAX_SPEED_BALLS_PER_S / opts.fps) * opts.scale;
  const tracklets: Tracklet<C>[] = [];
  let active: Tracklet<C>[] = [];
  for (let f = 0; f < moving.length; f++) {
    const cands = [...moving[f]].sort((a, b) => b.score - a.score);
    active = active.filter((t) => f - t.frames[t.frames.length - 1] <= o.LINK_GAP_FRAMES);
    const used = new Set<Tracklet<C>>();
    for (const c of cands) {
      let best: Tracklet<C> | null = null, bestD = Infinity;
      for (const t of active) {
        if (used.has(t)) continue;
        const n = t.obs.length, last = t.obs[n - 1], dt = f - t.frames[n - 1];
        let px = last.cx, py = last.cy, gate = maxStep * dt;
        if (n >= 2) {
          const prev = t.obs[n - 2], pdt = t.frames[n - 1] - t.frames[n - 2];
          const vx = (last.cx - prev.cx) / pdt, vy = (last.cy - prev.cy) / pdt;
          px += vx * dt;
          py += vy * dt;
          gate = Math.max(opts.scale, o.PREDICTION_GATE_SHARE * Math.hypot(vx, vy) * dt);
        }
        const d = Math.hypot(c.cx - px, c.cy - py);
        if (d < gate && d < bestD) { best = t; bestD = d; }
      }
      if (best) {
        best.frames.push(f);
        best.obs.push(c);
        used.add(best);
      } else if (c.score >= o.SEED_SCORE && (!opts.visiblyMoving || opts.visiblyMoving(c, f))) {
        const t = { frames: [f], obs: [c] };
        tracklets.push(t);
        active.push(t);
        used.add(t);
      }
    }
  }
  const standsOut = (t: Tracklet<C>) => !!opts.visiblyMoving && t.obs.every((b, i) => opts.visiblyMoving!(b, t.frames[i]));
  const worth = (t: Tracklet<C>): number => {
    if (t.obs.length < 2) return t.obs[0].score >= o.SINGLE_SIGHTING_SCORE ? 0.5 * t.obs[0].score : 0;
    const reach = Math.max(...t.obs.map((b) => Math.hypot(b.cx - t.obs[0].cx, b.cy - t.obs[0].cy)));
    if (t.obs.length >= 3 && reach < opts.scale && !steady(t, opts.scale, o, standsOut(t))) return 0;
    let w = 0.5 * t.obs[0].score;
    for (let i = 1; i < t.obs.length; i++) {
      const moved = Math.hypot(t.obs[i].cx - t.obs[i - 1].cx, t.obs[i].cy - t.obs[i - 1].cy) >= o.MOVED_BALLS * opts.scale;
      w += t.obs[i].score * (moved ? 1 : o.STILL_STEP_WORTH);
    }
    return w;
  };
  const chosen = bestNonOverlapping(tracklets.map((t) => ({ t, w: worth(t) })).filter((x) => x.w > 0));
  const path: Array<BallObs | null> = new Array(moving.length).fill(null);
  for (const t of chosen)
    t.frames.forEach((f, i) => {
      const b = t.obs[i];
      path[f] = { cx: b.cx, cy: b.cy, w: b.w, h: b.h, score: b.score };
    });
  return fillGaps(path, o.MAX_GAP_FRAMES);
}

/**
 * A short tracklet that moved on every step, by at least STEADY_STEP_BALLS each time: a ball seen for
 * a few frames close up (where one ball size is a big distance), not a look-alike flickering in place.
 * A look-alike can jitter back and forth by as much, so the steps must also go one way (end to end at
 * least STEADY_STRAIGHTNESS of the path), unless every sighting stood out from the region's
 * background (`standsOut`): a look-alike in place is part of that background, while a ball hitting
 * the rim close up turns back within a frame or two and stands out on each.
 */
function steady(t: Tracklet, scale: number, o: BallPathSettings, standsOut: boolean): boolean {
  let length = 0;
  for (let i = 1; i < t.obs.length; i++) {
    const step = Math.hypot(t.obs[i].cx - t.obs[i - 1].cx, t.obs[i].cy - t.obs[i - 1].cy) / (t.frames[i] - t.frames[i - 1]);
    if (step < scale * o.STEADY_STEP_BALLS) return false;
    length += step * (t.frames[i] - t.frames[i - 1]);
  }
  const first = t.obs[0], last = t.obs[t.obs.length - 1];
  return standsOut || Math.hypot(last.cx - first.cx, last.cy - first.cy) >= o.STEADY_STRAIGHTNESS * length;
}

/** Weighted interval scheduling: the set of tracklets with disjoint frame spans and the largest total worth. */
function bestNonOverlapping(items: Array<{ t: Tracklet; w: number }>): Tracklet[] {
  const xs = [...items].sort((a, b) => a.t.frames[a.t.frames.length - 1] - b.t.frames[b.t.frames.length - 1]);
  const end = (i: number) => xs[i].t.frames[xs[i].t.frames.length - 1];
  const best: number[] = new Array(xs.length + 1).fill(0);
  const take: boolean[] = new Array(xs.length).fill(false);
  const prevOf: number[] = xs.map((x, i) => {
    // The last item ending before this one starts (binary search over ends).
    let lo = 0, hi = i - 1, ans = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (end(mid) < x.t.frames[0]) { ans = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return ans;
  });
  for (let i = 0; i < xs.length; i++) {
    const withIt = xs[i].w + best[prevOf[i] + 1];
    if (withIt > best[i]) { best[i + 1] = withIt; take[i] = true; } else best[i + 1] = best[i];
  }
  const out: Tracklet[] = [];
  for (let i = xs.length - 1; i >= 0; ) {
    if (take[i]) { out.push(xs[i].t); i = prevOf[i]; } else i--;
  }
  return out;
}
