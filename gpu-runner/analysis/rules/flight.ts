// When the ball left the shooter's hands, from the ball's free flight. A ball in flight follows a
// parabola: in the picture its height is a quadratic of time and its sideways position close to a
// line (a camera's perspective bends a 1–2 s flight very little, and a smooth pan adds a slow drift
// the fit absorbs). A ball still in the hands does not: it rises with the body, slower, then is
// pushed. So the release is where the sightings stop fitting the flight that reaches the rim — a
// physical property of every shot, not a threshold on one camera's pixels, and it does not depend on
// the ball being seen in every frame (a run of sightings broken by one missed frame used to end the
// walk back at the gap; whether a copy of the video missed that frame moved the release by a
// second between sizes of the same footage).
import type { BallObs } from "./tracks.ts";

export const RELEASE_DEFAULTS = {
  /** How far back from the ball's arrival at the rim the release is looked for, seconds (slow motion stretches flights). */
  SEARCH_S: 4,
  /** A longer stretch without a sighting ends the search: the ball before it may be another ball or an earlier shot, seconds. */
  MAX_GAP_S: 0.35,
  /** The flight that seeds the fit: sightings up to this long before the apex and after it (before the rim), seconds. */
  SEED_S: 0.45,
  /** A sighting further than this from the fitted flight is not in flight, in ball diameters. */
  OFF_FLIGHT_BALLS: 0.6,
  /** Sightings the seed needs for a fit (a parabola has three unknowns; fewer leaves the older walk to decide). */
  MIN_SEED_SIGHTINGS: 4,
  /**
   * A ball whose centre is within this many ball diameters of the picture's top edge is at the top
   * (its disc touches the edge or nearly): a flight whose highest sighting before the rim is there
   * may have gone out of the picture over the top and come back, and a sighting at the top edge
   * before it, across a gap, is where it left.
   */
  AT_TOP_EDGE_BALLS: 1,
};
export type ReleaseSettings = typeof RELEASE_DEFAULTS;

export interface BallisticRelease {
  /** The first frame of the flight (the ball's first sighting on the fitted parabola). */
  frame: number;
  /** The walk ended on a sighting off the flight (the ball in hand), not at a gap or the search's start. */
  held: boolean;
  /** Sightings on the fitted flight. */
  sightings: number;
}

interface Sighting {
  frame: number;
  t: number;
  x: number;
  y: number;
  size: number;
}

/** Least squares of y = a·t² + b·t + c and x = d·t + e over the sightings. */
function fitFlight(s: Sighting[]): { y: (t: number) => number; x: (t: number) => number; a: number; b: number } | null {
  // Normal equations of the quadratic (3×3) and the line (2×2), solved by Cramer's rule.
  let n = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, y0 = 0, y1 = 0, y2 = 0, x0 = 0, x1 = 0;
  for (const p of s) {
    const tt = p.t * p.t;
    n++; t1 += p.t; t2 += tt; t3 += tt * p.t; t4 += tt * tt;
    y0 += p.y; y1 += p.y * p.t; y2 += p.y * tt;
    x0 += p.x; x1 += p.x * p.t;
  }
  const det3 = (m: number[][]) => m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const M = [[t4, t3, t2], [t3, t2, t1], [t2, t1, n]];
  const D = det3(M);
  const dLine = n * t2 - t1 * t1;
  if (Math.abs(D) < 1e-12 || Math.abs(dLine) < 1e-12) return null;
  const rhs = [y2, y1, y0];
  const solve = (k: number) => det3(M.map((row, i) => row.map((v, j) => (j === k ? rhs[i] : v)))) / D;
  const a = solve(0), b = solve(1), c = solve(2);
  const d = (n * x1 - t1 * x0) / dLine, e = (x0 - d * t1) / n;
  return { y: (t) => a * t * t + b * t + c, x: (t) => d * t + e, a, b };
}

/**
 * The release of the shot whose ball reached the rim at `rimFrame`: the sightings before the rim,
 * back to a gap longer than MAX_GAP_S, seed a parabola around the highest one (the apex); earlier
 * sightings join the flight while they lie within OFF_FLIGHT_BALLS of it (the fit is redone with
 * each), and the first two in a row off it end the flight — one stray sighting (a second ball, a
 * detection on a hand) does not. Null when the seed is too thin to fit or the fit does not fall
 * (image y grows downwards: a flight's a is positive); the caller then falls back to the walk up the rise.
 */
export function ballisticRelease(ball: ReadonlyArray<BallObs | null>, rimFrame: number, fps: number, settings: ReleaseSettings = RELEASE_DEFAULTS): BallisticRelease | null {
  const from = Math.max(0, rimFrame - Math.round(fps * settings.SEARCH_S));
  const maxGap = Math.round(fps * settings.MAX_GAP_S);
  const run = sightingsBack(ball, rimFrame, from, maxGap);
  if (run.length < settings.MIN_SEED_SIGHTINGS) return null;
  // The apex of the flight that reached the rim: going back from the rim the ball climbs to it, then
  // (before it, on the way up) is lower again. Not the highest sighting of the whole run, which may
  // be the previous shot's apex seen across short gaps.
  let apex = run[0];
  for (const s of run) {
    if (s.y < apex.y) apex = s;
    else if (s.y - apex.y > s.size) break;
  }
  const seedFrames = Math.round(fps * settings.SEED_S);
  const size = [...run].sort((p, q) => p.size - q.size)[run.length >> 1].size;
  const overTop = overTheTop(ball, run, apex, from, maxGap, seedFrames, fps, size, settings);
  let flight: Sighting[], earlier: Sighting[];
  if (overTop) ({ flight, earlier } = overTop);
  else {
    for (const s of run) s.t = (s.frame - apex.frame) / fps;
    flight = run.filter((s) => Math.abs(s.frame - apex.frame) <= seedFrames);
    earlier = run.filter((s) => s.frame < apex.frame - seedFrames); // latest first
  }
  if (flight.length < settings.MIN_SEED_SIGHTINGS) return null;
  let fit = fitFlight(flight);
  if (!fit || !(fit.a > 0)) return null;
  let off = 0, held = false;
  let lowest = flight.reduce((a, s) => (s.frame < a.frame ? s : a));
  for (const s of earlier) {
    const miss = Math.hypot(fit.x(s.t) - s.x, fit.y(s.t) - s.y) / size;
    // Before the apex a flight only rises: going back in time, each sighting is lower in the picture
    // than the next. A ball higher than the flight's earliest sighting is not this flight's (the
    // previous shot dropping through the net, a pass): the refitted parabola must not bend to it.
    if (miss > settings.OFF_FLIGHT_BALLS || s.y < lowest.y - settings.OFF_FLIGHT_BALLS * size) {
      if (++off >= 2) {
        held = true;
        break;
      }
      continue;
    }
    off = 0;
    flight.push(s);
    lowest = s;
    fit = fitFlight(flight) ?? fit;
  }
  const first = flight.reduce((a, s) => (s.frame < a.frame ? s : a));
  return { frame: first.frame, held, sightings: flight.length };
}

/** The run of real sightings that reaches `to`, latest first, back to `from` or a gap longer than `maxGap` frames (interpolated fill is not a sighting). */
function sightingsBack(ball: ReadonlyArray<BallObs | null>, to: number, from: number, maxGap: number): Sighting[] {
  const run: Sighting[] = [];
  let last = to + 1;
  for (let f = Math.min(to, ball.length - 1); f >= from; f--) {
    const b = ball[f];
    if (!b || b.interpolated) continue;
    if (last - f - 1 > maxGap) break;
    run.push({ frame: f, t: 0, x: b.cx, y: b.cy, size: Math.max(b.w, b.h) });
    last = f;
  }
  return run;
}

/**
 * A flight that went out of the picture over its top edge and came back (a high arc in a tight
 * frame, slow motion): its highest sighting before the rim (`apex`) is at the top edge
 * (AT_TOP_EDGE_BALLS, or a frame's travel from it), and so is an earlier sighting, more than MAX_GAP_S before it, that the ball
 * rose to (the sighting before it lower): where it left (latest first, the first that holds). Sightings between the two are not the ball
 * (it was above the picture). The flight is seeded on both sides of the gap, and it is that flight
 * only if one parabola holds both: every seed sighting within OFF_FLIGHT_BALLS of it, its top above
 * the picture and between the exit and the return. Returns the seed (the return's SEED_S, the exit
 * and the sighting before it) and the sightings before those (latest first), which the walk back
 * joins as any other; or null: the flight is then seeded at the apex seen, as without the rule.
 */
function overTheTop(ball: ReadonlyArray<BallObs | null>, run: Sighting[], apex: Sighting, from: number, maxGap: number, seedFrames: number, fps: number, size: number, o: ReleaseSettings): { flight: Sighting[]; earlier: Sighting[] } | null {
  // At the top edge: within AT_TOP_EDGE_BALLS of it, or within a frame's travel at its speed (a fast ball crosses more than a diameter a frame).
  const atTop = (y: number, size: number, speedPerFrame: number) => y <= Math.max(o.AT_TOP_EDGE_BALLS * size, speedPerFrame);
  const next = run.filter((s) => s.frame > apex.frame).at(-1);
  if (!atTop(apex.y, apex.size, next ? (next.y - apex.y) / (next.frame - apex.frame) : 0)) return null;
  const after = run.filter((s) => s.frame >= apex.frame && s.frame <= apex.frame + seedFrames);
  // Latest first: each sighting at the top edge the ball rose to is a possible exit; the first that one parabola holds is it.
  for (let exitFrame = apex.frame - maxGap - 1; exitFrame > from; exitFrame--) {
    const b = ball[exitFrame], prev = ball[exitFrame - 1];
    if (!b || b.interpolated || !prev || prev.cy <= b.cy || !atTop(b.cy, Math.max(b.w, b.h), prev.cy - b.cy)) continue;
    const before = sightingsBack(ball, exitFrame, from, maxGap);
    const origin = (exitFrame + apex.frame) / 2;
    // The exit side seeds with the exit and the sighting before it (where it was going); the walk back takes the rest.
    const flight = [...after, ...before.slice(0, 2)];
    for (const s of [...flight, ...before]) s.t = (s.frame - origin) / fps;
    const fit = flight.length >= o.MIN_SEED_SIGHTINGS ? fitFlight(flight) : null;
    if (!fit || !(fit.a > 0)) continue;
    const topT = -fit.b / (2 * fit.a), topFrame = origin + topT * fps;
    const holds = flight.every((s) => Math.hypot(fit.x(s.t) - s.x, fit.y(s.t) - s.y) / size <= o.OFF_FLIGHT_BALLS);
    if (holds && fit.y(topT) < 0 && topFrame > exitFrame && topFrame < apex.frame) return { flight, earlier: before.slice(2) };
  }
  return null;
}
