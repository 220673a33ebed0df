// One ball path from noisy per-frame ball candidates on real footage. Two things go wrong on real
// video: things that look like a ball and never move (a ball resting on the floor, a logo, a
// watermark, a lamp) and single-frame false hits. The first are removed by persistence (a place
// that fires in much of a few seconds is not a flying ball), the second by motion continuity.
import type { Candidate } from "../vision/basketball.ts";
import type { BallObs } from "./tracks.ts";

export interface BallPathOptions {
  fps: number;
  /** Typical ball size in pixels here (a rim is about twice as wide as the ball), for distances. */
  scale: number;
  /** A place that holds a candidate in at least this share of the frames around it is static. */
  staticShare?: number;
  /** Window (seconds each side) for the static test. */
  staticWindowS?: number;
  /** Gaps up to this many frames are interpolated. */
  maxGap?: number;
  /** Candidates scoring less are ignored. */
  minScore?: number;
  /** Candidates scoring less than this may extend a tracklet but never start one (hysteresis). */
  seedScore?: number;
  /** Candidates whose size is outside [lo, hi] × `scale` are something else (when the scale is known well). */
  sizeRange?: [number, number];
}

/**
 * Removes candidates that sit still: those with a candidate within half a ball in much of the
 * frames around them. A place that always fires a little (a net, a logo) can still hold the real
 * ball for a moment: a candidate that scores clearly above what that place usually scores stays.
 */
export function dropStatic(perFrame: Candidate[][], opts: BallPathOptions): Candidate[][] {
  const share = opts.staticShare ?? 0.3;
  const half = Math.max(2, Math.round((opts.staticWindowS ?? 2) * opts.fps));
  const radius = Math.max(2, opts.scale * 0.5);
  return perFrame.map((cands, f) =>
    cands.filter((c) => {
      const present: number[] = [];
      let total = 0;
      for (let g = Math.max(0, f - half); g <= Math.min(perFrame.length - 1, f + half); g++) {
        if (g === f) continue;
        total++;
        let best = 0;
        for (const o of perFrame[g]) if (Math.hypot(o.cx - c.cx, o.cy - c.cy) <= radius && o.score > best) best = o.score;
        if (best > 0) present.push(best);
      }
      if (total === 0 || present.length / total < share) return true;
      present.sort((a, b) => a - b);
      return c.score >= Math.max(0.3, 1.4 * present[present.length >> 1]);
    }),
  );
}

interface Tracklet {
  frames: number[];
  obs: Candidate[];
}

/**
 * Links candidates frame to frame into tracklets (a ball moves at most `maxStep` ball sizes a frame;
 * the prediction uses the last velocity), then keeps, frame by frame, the observation of the longest
 * tracklet present: a flying ball is seen in many consecutive frames, a false hit rarely twice in a row.
 * Single-frame tracklets only count when nothing else is there and they are confident.
 */
export function buildBallPath(perFrame: Candidate[][], opts: BallPathOptions): Array<BallObs | null> {
  const minScore = opts.minScore ?? 0;
  const [lo, hi] = opts.sizeRange ?? [0, Infinity];
  const plausible = perFrame.map((cs) => cs.filter((c) => c.score >= minScore && (c.w + c.h) / 2 >= lo * opts.scale && (c.w + c.h) / 2 <= hi * opts.scale));
  const moving = dropStatic(plausible, opts);
  // Up to ~25 m/s at 0.24 m per ball: 100 ball sizes a second.
  const maxStep = (100 / opts.fps) * opts.scale;
  const tracklets: Tracklet[] = [];
  let active: Tracklet[] = [];
  for (let f = 0; f < moving.length; f++) {
    const cands = [...moving[f]].sort((a, b) => b.score - a.score);
    active = active.filter((t) => f - t.frames[t.frames.length - 1] <= 3);
    const used = new Set<Tracklet>();
    for (const c of cands) {
      let best: Tracklet | null = null, bestD = Infinity;
      for (const t of active) {
        if (used.has(t)) continue;
        const n = t.obs.length, last = t.obs[n - 1], dt = f - t.frames[n - 1];
        let px = last.cx, py = last.cy;
        if (n >= 2) {
          const prev = t.obs[n - 2], pdt = t.frames[n - 1] - t.frames[n - 2];
          px += ((last.cx - prev.cx) / pdt) * dt;
          py += ((last.cy - prev.cy) / pdt) * dt;
        }
        const d = Math.hypot(c.cx - px, c.cy - py);
        const gate = n >= 2 ? Math.max(opts.scale * 1.5, maxStep * 0.5 * dt) : maxStep * dt;
        if (d < gate && d < bestD) { best = t; bestD = d; }
      }
      if (best) {
        best.frames.push(f);
        best.obs.push(c);
        used.add(best);
      } else if (c.score >= (opts.seedScore ?? 0)) {
        const t = { frames: [f], obs: [c] };
        tracklets.push(t);
        active.push(t);
        used.add(t);
      }
    }
  }
  const path: Array<BallObs | null> = new Array(moving.length).fill(null);
  const owner: number[] = new Array(moving.length).fill(0);
  for (const t of tracklets) {
    const len = t.frames.length;
    const strength = len + t.obs.reduce((a, o) => a + o.score, 0) / len;
    if (len < 2 && t.obs[0].score < 0.4) continue;
    // A tracklet that never gets a ball's size away from where it started is a static look-alike
    // that the persistence test missed (it flickers), not a ball in play.
    const reach = Math.max(...t.obs.map((o) => Math.hypot(o.cx - t.obs[0].cx, o.cy - t.obs[0].cy)));
    if (len >= 3 && reach < opts.scale) continue;
    t.frames.forEach((f, i) => {
      if (strength > owner[f]) {
        owner[f] = strength;
        const o = t.obs[i];
        path[f] = { cx: o.cx, cy: o.cy, w: o.w, h: o.h, score: o.score };
      }
    });
  }
  return fillGaps(path, opts.maxGap ?? 2);
}

function fillGaps(track: Array<BallObs | null>, maxGap: number): Array<BallObs | null> {
  const out = [...track];
  let prev = -1;
  for (let f = 0; f < out.length; f++) {
    if (!track[f]) continue;
    if (prev >= 0 && f - prev > 1 && f - prev - 1 <= maxGap) {
      const a = track[prev]!, b = track[f]!;
      for (let g = prev + 1; g < f; g++) {
        const s = (g - prev) / (f - prev);
        out[g] = { cx: a.cx + (b.cx - a.cx) * s, cy: a.cy + (b.cy - a.cy) * s, w: a.w + (b.w - a.w) * s, h: a.h + (b.h - a.h) * s, score: 0, interpolated: true };
      }
    }
    prev = f;
  }
  return out;
}
