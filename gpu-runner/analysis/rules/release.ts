// Where a shot was taken from, read from the ball at release rather than from whoever stands
// nearest in the image: a defender between shooter and camera overlaps the ball in the image but
// stands a metre or more away on the floor.
import type { PlayerTrack } from "./tracks.ts";
import type { Point } from "../types.ts";

/** Box height (px) of a standing player as a linear function of the image row of their feet. */
export type HeightModel = (feetY: number) => number;

/**
 * Least squares over every tracked box: under a fixed camera looking down at a flat floor, image
 * height of people grows roughly linearly with how low their feet are in the frame.
 */
export function fitHeightModel(tracks: PlayerTrack[]): HeightModel | null {
  let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const t of tracks)
    for (let i = 0; i < t.boxes.length; i += 3) {
      const b = t.boxes[i];
      const x = b.cy + b.h / 2, y = b.h;
      n++; sx += x; sy += y; sxx += x * x; sxy += x * y;
    }
  if (n < 20) return null;
  const den = n * sxx - sx * sx;
  const slope = Math.abs(den) < 1e-9 ? 0 : (n * sxy - sx * sy) / den;
  const icept = (sy - slope * sx) / n;
  const median = sy / n;
  return (feetY: number) => Math.max(median * 0.3, icept + slope * feetY);
}

/**
 * The floor point under a ball held `ratio` player-heights above the floor (at the start of a
 * shooting motion, about chest height): solve feetY = ballY + ratio·h(feetY).
 */
export function feetUnderBall(ball: Point, model: HeightModel, ratio = 0.5): Point {
  let feetY = ball[1] + ratio * model(ball[1]);
  for (let i = 0; i < 8; i++) feetY = ball[1] + ratio * model(feetY);
  return [ball[0], feetY];
}

export interface ShooterCandidate {
  key: string;
  world: Point;
}

/**
 * The candidate standing closest on the floor to the ball-implied spot. `holderBonus` (metres of
 * head start for the ball's recent holder) is 0 by default: on the development games image-based
 * possession was wrong more often than the floor distance (a defender in front of the shooter
 * overlaps the ball in the image).
 */
export function pickShooter(candidates: ShooterCandidate[], spot: Point, holder: string | null, maxDistance = 1.8, holderBonus = 0): { key: string; distance: number } | null {
  let best: { key: string; distance: number; score: number } | null = null;
  for (const c of candidates) {
    const distance = Math.hypot(c.world[0] - spot[0], c.world[1] - spot[1]);
    const score = distance - (c.key === holder ? holderBonus : 0);
    if (distance <= maxDistance && (!best || score < best.score)) best = { key: c.key, distance, score };
  }
  return best ? { key: best.key, distance: best.distance } : null;
}

/**
 * Dribble bounces in [from, to]: frames where the ball (seen, not interpolated) is at its lowest in
 * the image and rose by at least `minRise` pixels both in the `span` frames before and after. At a
 * bounce the ball touches the floor, so its image point is a floor point the homography maps
 * exactly, unlike the ball at the release, whose height above the floor must be guessed.
 */
export function dribbleBounces(ball: Array<{ cx: number; cy: number; interpolated?: boolean } | null>, from: number, to: number, span: number, minRise: (cy: number) => number): number[] {
  const out: number[] = [];
  const seen = (f: number) => {
    const b = ball[f];
    return b && !b.interpolated ? b : null;
  };
  for (let f = Math.max(span, from); f <= to && f + 1 < ball.length; f++) {
    const b = seen(f);
    if (!b) continue;
    let lowest = true, before = 0, after = 0;
    for (let d = 1; d <= span && lowest; d++) {
      const p = seen(f - d), n = seen(f + d);
      if ((p && p.cy > b.cy) || (n && n.cy > b.cy)) lowest = false;
      if (p) before = Math.max(before, b.cy - p.cy);
      if (n) after = Math.max(after, b.cy - n.cy);
    }
    const need = minRise(b.cy);
    if (lowest && before >= need && after >= need) out.push(f);
  }
  return out;
}

/**
 * The dribbler: at each bounce, the candidate whose feet stand nearest the bounce on the floor
 * (within `maxDistance` metres) gets a vote; the most votes win, the later bounce breaking ties.
 */
export function pickDribbler(bounces: Array<{ frame: number; candidates: ShooterCandidate[]; spot: Point }>, maxDistance = 1.2): string | null {
  const votes = new Map<string, { n: number; last: number }>();
  for (const b of bounces) {
    let best: ShooterCandidate | null = null, bd = Infinity;
    for (const c of b.candidates) {
      const d = Math.hypot(c.world[0] - b.spot[0], c.world[1] - b.spot[1]);
      if (d < bd) { bd = d; best = c; }
    }
    if (!best || bd > maxDistance) continue;
    const v = votes.get(best.key) ?? { n: 0, last: -1 };
    votes.set(best.key, { n: v.n + 1, last: Math.max(v.last, b.frame) });
  }
  let win: string | null = null, wv = { n: 0, last: -1 };
  for (const [k, v] of votes) if (v.n > wv.n || (v.n === wv.n && v.last > wv.last)) { win = k; wv = v; }
  return win;
}
