// Turns per-frame detections into tracks: one ball path, hoop tracks, and player tracks.
import { boxIou } from "../../vision/boxes.ts";
import type { Detection, DetectionOf, Detections } from "../../vision/detections.ts";
import type { Box, RGB } from "../types.ts";

export interface BallObs extends Box {
  score: number;
  /** True when the position was interpolated across a short detection gap. */
  interpolated?: boolean;
}

/**
 * One ball per frame: the detection nearest the predicted position when the ball was seen
 * recently (a second orange blob should not make the path jump), else the most confident one.
 * Gaps up to `maxGap` frames are filled linearly: the ball is often hidden for a frame by the
 * net or a hand, and shot logic wants a continuous path.
 */
export function buildBallTrack(perFrame: ReadonlyArray<Detections>, opts: { maxJump: number; maxGap?: number }): Array<BallObs | null> {
  const out: Array<BallObs | null> = [];
  let last: BallObs | null = null, lastFrame = -1e9, vel: [number, number] = [0, 0];
  for (let f = 0; f < perFrame.length; f++) {
    const all = perFrame[f].filter((d) => d.className === "ball");
    // Only near-best candidates compete on distance, so a weak static look-alike cannot capture
    // the track while the real ball flies fast out of the gate.
    const top = all.reduce((m, d) => Math.max(m, d.score), 0);
    const balls = all.filter((d) => d.score >= 0.75 * top);
    let pick: Detection | null = null;
    if (balls.length && last && f - lastFrame <= 5) {
      const dt = f - lastFrame;
      const px = last.cx + vel[0] * dt, py = last.cy + vel[1] * dt;
      let best = Infinity;
      for (const b of balls) {
        const d = Math.hypot(b.cx - px, b.cy - py);
        if (d < best && d < opts.maxJump * dt) { best = d; pick = b; }
      }
      if (!pick) pick = balls.reduce((a, b) => (b.score > a.score ? b : a));
    } else if (balls.length) pick = balls.reduce((a, b) => (b.score > a.score ? b : a));
    if (pick) {
      const obs: BallObs = { cx: pick.cx, cy: pick.cy, w: pick.w, h: pick.h, score: pick.score };
      if (last && f - lastFrame <= 5) vel = [(obs.cx - last.cx) / (f - lastFrame), (obs.cy - last.cy) / (f - lastFrame)];
      else vel = [0, 0];
      last = obs;
      lastFrame = f;
      out.push(obs);
    } else out.push(null);
  }
  return fillGaps(out, opts.maxGap ?? 4);
}

export function fillGaps(track: Array<BallObs | null>, maxGap: number): Array<BallObs | null> {
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

export interface HoopTrack {
  id: number;
  /** Fraction of frames where this hoop was detected. */
  coverage: number;
  /** Position for every frame (held or interpolated between detections). */
  boxes: Box[];
  detections: number;
  /** Half-open frame ranges in which the rim is in view (observed window by window); absent: the whole video. */
  active?: Array<[number, number]>;
  /** Timeline frame of `boxes[0]` (absent: 0). See `hoopBoxAt`. */
  from?: number;
}

/** Whether a hoop is in view at a frame (see `HoopTrack.active`). */
export function hoopInView(hoop: Pick<HoopTrack, "active">, frame: number): boolean {
  return !hoop.active || hoop.active.some(([s, e]) => frame >= s && frame < e);
}

/**
 * The hoop's box at a timeline frame. A rim of one scene of a long video keeps boxes only for its own
 * frames, from `from` on (so the observations grow with the video, not with the video times its
 * rims); before them its first box holds, after them its last.
 */
export function hoopBoxAt(hoop: Pick<HoopTrack, "boxes" | "from">, frame: number): Box {
  return hoop.boxes[Math.min(Math.max(0, frame - (hoop.from ?? 0)), hoop.boxes.length - 1)];
}

/**
 * Hoops barely move (a panning camera moves them smoothly), so detections are linked by distance
 * and a hoop is kept when seen in a good share of frames; the share rules out brief false positives
 * such as a red shirt.
 */
export function buildHoopTracks(perFrame: ReadonlyArray<Detections>, opts: { minCoverage?: number } = {}): HoopTrack[] {
  interface Raw { id: number; frames: number[]; boxes: Box[] }
  const raws: Raw[] = [];
  for (let f = 0; f < perFrame.length; f++) {
    for (const d of perFrame[f]) {
      if (d.className !== "rim") continue;
      let best: Raw | null = null, bestD = Infinity;
      for (const r of raws) {
        const lb = r.boxes[r.boxes.length - 1];
        const dist = Math.hypot(lb.cx - d.cx, lb.cy - d.cy);
        if (dist < Math.max(lb.w, 8) * 2 && dist < bestD && r.frames[r.frames.length - 1] !== f) { best = r; bestD = dist; }
      }
      const box = { cx: d.cx, cy: d.cy, w: d.w, h: d.h };
      if (best) { best.frames.push(f); best.boxes.push(box); }
      else raws.push({ id: raws.length, frames: [f], boxes: [box] });
    }
  }
  const n = perFrame.length;
  const minCoverage = opts.minCoverage ?? 0.2;
  return raws
    .filter((r) => r.frames.length >= minCoverage * n)
    .map((r, id) => {
      // Median width: partial occlusion by the ball makes single boxes too small or too big.
      const widths = r.boxes.map((b) => b.w).sort((a, b) => a - b);
      const heights = r.boxes.map((b) => b.h).sort((a, b) => a - b);
      const mw = widths[widths.length >> 1], mh = heights[heights.length >> 1];
      const boxes: Box[] = new Array(n);
      let k = 0;
      for (let f = 0; f < n; f++) {
        while (k + 1 < r.frames.length && r.frames[k + 1] <= f) k++;
        const a = r.frames[k], ba = r.boxes[k];
        if (f <= a || k + 1 >= r.frames.length) boxes[f] = { cx: ba.cx, cy: ba.cy, w: mw, h: mh };
        else {
          const b = r.frames[k + 1], bb = r.boxes[k + 1];
          const s = (f - a) / (b - a);
          boxes[f] = { cx: ba.cx + (bb.cx - ba.cx) * s, cy: ba.cy + (bb.cy - ba.cy) * s, w: mw, h: mh };
        }
      }
      return { id, coverage: r.frames.length / n, boxes, detections: r.frames.length };
    });
}

export interface PlayerTrack {
  id: number;
  frames: number[];
  boxes: Box[];
  colors: Array<[number, number, number]>;
  jerseyReads: string[];
}

/**
 * Online greedy tracker (highest IoU first, centre distance as a fallback for small boxes).
 * It runs inside the decode loop so jersey crops can be taken while the frame is in memory.
 */
export class PlayerTracker {
  tracks: PlayerTrack[] = [];
  private active: PlayerTrack[] = [];
  constructor(private readonly maxMissing = 12) {}

  update(frame: number, persons: ReadonlyArray<DetectionOf<"person"> & { color: RGB }>): Array<{ track: PlayerTrack; det: Detection }> {
    this.active = this.active.filter((t) => frame - t.frames[t.frames.length - 1] <= this.maxMissing);
    const pairs: Array<{ t: PlayerTrack; d: number; cost: number }> = [];
    for (const t of this.active) {
      const lb = t.boxes[t.boxes.length - 1];
      persons.forEach((p, d) => {
        const iou = boxIou(lb, p);
        const dist = Math.hypot(lb.cx - p.cx, lb.cy - p.cy) / Math.max(lb.h, 1);
        const colorDist = Math.hypot(...t.colors[t.colors.length - 1].map((c, i) => c - p.color[i]));
        if ((iou > 0.15 || dist < 0.5) && colorDist < 90) pairs.push({ t, d, cost: (1 - iou) + dist + colorDist / 200 });
      });
    }
    pairs.sort((a, b) => a.cost - b.cost);
    const usedT = new Set<PlayerTrack>(), usedD = new Set<number>();
    const out: Array<{ track: PlayerTrack; det: Detection }> = [];
    for (const p of pairs) {
      if (usedT.has(p.t) || usedD.has(p.d)) continue;
      usedT.add(p.t);
      usedD.add(p.d);
      this.push(p.t, frame, persons[p.d]);
      out.push({ track: p.t, det: persons[p.d] });
    }
    persons.forEach((p, d) => {
      if (usedD.has(d)) return;
      const t: PlayerTrack = { id: this.tracks.length, frames: [], boxes: [], colors: [], jerseyReads: [] };
      this.tracks.push(t);
      this.active.push(t);
      this.push(t, frame, p);
      out.push({ track: t, det: p });
    });
    return out;
  }

  private push(t: PlayerTrack, frame: number, d: DetectionOf<"person"> & { color: RGB }) {
    t.frames.push(frame);
    t.boxes.push({ cx: d.cx, cy: d.cy, w: d.w, h: d.h });
    t.colors.push(d.color);
  }
}

export const TRACK_SPLIT_DEFAULTS = {
  /** Seconds of a track compared on each side of a frame where it may have switched to something else. */
  SWITCH_WINDOW_S: 0.4,
  /**
   * A track whose median box height over SWITCH_WINDOW_S before a frame and over SWITCH_WINDOW_S from
   * it differ by more than this factor followed two different things. A person's box changes by at
   * most 1.4 times that way on the tuning clips (arms up for a shot, a crouch, a run towards the
   * camera); a shooter's box that the tracker left for a wall fixture inside it halves.
   */
  MAX_HEIGHT_RATIO: 1.7,
};

/**
 * Tracks split where they switched from one thing to another. The online tracker matches a box to
 * a track by overlap, so a small box inside a person's box (a fixture on the wall behind a shooter
 * running past it) can take over the person's track while the person gets a new one: the two are
 * then on screen together, and no rule can make them one player or tell the fixture from him. Split
 * at the switch, the pieces are judged on their own (a still piece is scenery, `sceneryTracks`) and
 * joined by the identity rules (`buildIdentities`). The tracker gates each step by overlap or a
 * move under half a body height, so a switch shows as a change of size, not of speed.
 * The longest piece keeps the track's id (and so its jersey reads, which carry no frame); the others
 * get ids after every track's. Pure: the observations stay as they were observed.
 */
export function splitTrackSwitches(tracks: PlayerTrack[], fps: number, o = TRACK_SPLIT_DEFAULTS): PlayerTrack[] {
  let nextId = tracks.reduce((m, t) => Math.max(m, t.id + 1), 0);
  const window = o.SWITCH_WINDOW_S * fps;
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const slice = (t: PlayerTrack, from: number, to: number): PlayerTrack => ({ id: t.id, frames: t.frames.slice(from, to), boxes: t.boxes.slice(from, to), colors: t.colors.slice(from, to), jerseyReads: t.jerseyReads });
  /** Where the height changes most between the windows on either side, when beyond MAX_HEIGHT_RATIO; each side must cover half a window. */
  const switchAt = (t: PlayerTrack): number | null => {
    let best: number | null = null, bestRatio = o.MAX_HEIGHT_RATIO;
    for (let k = 1; k < t.frames.length; k++) {
      const f = t.frames[k];
      let i0 = k, i1 = k;
      while (i0 > 0 && t.frames[i0 - 1] >= f - window) i0--;
      while (i1 < t.frames.length && t.frames[i1] < f + window) i1++;
      if (i0 === k || t.frames[k - 1] - t.frames[i0] < window / 2 || t.frames[i1 - 1] - f < window / 2) continue;
      const before = median(t.boxes.slice(i0, k).map((b) => b.h)), after = median(t.boxes.slice(k, i1).map((b) => b.h));
      const ratio = Math.max(before, after) / Math.max(Math.min(before, after), 1e-6);
      if (ratio > bestRatio) { bestRatio = ratio; best = k; }
    }
    return best;
  };
  const pieces = (t: PlayerTrack): PlayerTrack[] => {
    const k = switchAt(t);
    return k === null ? [t] : [...pieces(slice(t, 0, k)), ...pieces(slice(t, k, t.frames.length))];
  };
  return tracks.flatMap((t) => {
    const split = pieces(t);
    if (split.length === 1) return split;
    const longest = split.reduce((a, b) => (b.frames.length > a.frames.length ? b : a));
    return split.map((p) => (p === longest ? p : { ...p, id: nextId++, jerseyReads: [] }));
  });
}

/** Box of a track at a frame, or null when the track was not seen within `tolerance` frames. */
export function trackBoxAt(t: PlayerTrack, frame: number, tolerance = 3): Box | null {
  let lo = 0, hi = t.frames.length - 1;
  if (hi < 0 || frame < t.frames[0] - tolerance || frame > t.frames[hi] + tolerance) return null;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.frames[mid] < frame) lo = mid + 1;
    else hi = mid;
  }
  const cands = [lo - 1, lo].filter((i) => i >= 0 && i < t.frames.length);
  let best = -1, bd = Infinity;
  for (const i of cands) if (Math.abs(t.frames[i] - frame) < bd) { bd = Math.abs(t.frames[i] - frame); best = i; }
  return bd <= tolerance ? t.boxes[best] : null;
}

/**
 * A track sampled every few frames (people are detected on the whole-frame scan only) with its
 * boxes interpolated on the frames between sightings up to `maxGap` apart, so per-frame logic
 * (who holds the ball) sees the player on every frame.
 */
export function densifyTrack(t: PlayerTrack, maxGap: number): PlayerTrack {
  const out: PlayerTrack = { id: t.id, frames: [], boxes: [], colors: [], jerseyReads: t.jerseyReads };
  t.frames.forEach((f, i) => {
    if (i > 0) {
      const pf = t.frames[i - 1];
      if (f - pf > 1 && f - pf <= maxGap) {
        const a = t.boxes[i - 1], b = t.boxes[i];
        for (let g = pf + 1; g < f; g++) {
          const s = (g - pf) / (f - pf);
          out.frames.push(g);
          out.boxes.push({ cx: a.cx + (b.cx - a.cx) * s, cy: a.cy + (b.cy - a.cy) * s, w: a.w + (b.w - a.w) * s, h: a.h + (b.h - a.h) * s });
          out.colors.push(t.colors[i - 1]);
        }
      }
    }
    out.frames.push(f);
    out.boxes.push(t.boxes[i]);
    out.colors.push(t.colors[i]);
  });
  return out;
}
