// Shot attempts and makes from the ball's path around one rim, in the rim's own units: positions are
// measured from the ring's centre in rim widths (u across, v down), so the same rules hold for a
// distant side view (a 20-pixel rim) and a close-up (a 250-pixel rim).
//
// An attempt is a visit of the ball to the space above and around the ring that comes from
// elsewhere (a flight, a lay-up, a tip) and gets close to the ring. It is made when the ball is seen
// passing down through the ring: above the ring, then below it inside the ring's width, and not
// back above the ring afterwards.
import type { Box } from "./types.ts";
import type { BallObs } from "./tracks.ts";

export interface Attempt {
  rim: number;
  /** First frame of the visit. */
  startFrame: number;
  /** Frame the ball came closest to the ring. */
  rimFrame: number;
  /** Last frame of the visit. */
  endFrame: number;
  made: boolean;
  /** Why, for the bench and the artifacts. */
  evidence: { through: boolean; outAfter: boolean; closest: number; seenAbove: boolean };
}

export interface AttemptOptions {
  fps: number;
  /** Frames to ignore (e.g. outside the rim's region) are simply null in `ball`. */
  zone?: { halfWidth: number; above: number; below: number };
}

interface Rel {
  u: number;
  v: number;
  /** Ball size over rim width. */
  s: number;
  seen: boolean;
}

function rel(b: BallObs | null, r: Box): Rel | null {
  if (!b) return null;
  return { u: (b.cx - r.cx) / r.w, v: (b.cy - r.cy) / r.w, s: (b.w + b.h) / 2 / r.w, seen: !b.interpolated };
}

export function detectAttempts(ball: Array<BallObs | null>, rimBoxes: Box[], rimId: number, opts: AttemptOptions): Attempt[] {
  const zone = opts.zone ?? { halfWidth: 2.2, above: 4.5, below: 2.5 };
  const fps = opts.fps;
  const n = ball.length;
  const R = ball.map((b, f) => rel(b, rimBoxes[Math.min(f, rimBoxes.length - 1)]));
  const inZone = (p: Rel | null) => !!p && Math.abs(p.u) <= zone.halfWidth && p.v >= -zone.above && p.v <= zone.below;
  // A ball much bigger or smaller than a rim's half is somewhere else in depth (a pass in front of
  // the camera, a ball on the far side of the court), not at this rim.
  const plausibleSize = (p: Rel) => p.s > 0.2 && p.s < 1.2;
  const attempts: Attempt[] = [];
  const bridge = Math.round(fps * 0.35);
  let f = 0;
  while (f < n) {
    if (!inZone(R[f]) || !plausibleSize(R[f]!)) { f++; continue; }
    // The visit: zone frames joined across short gaps (the ball hidden by the net or the board).
    let end = f;
    for (let g = f + 1; g < n && g - end <= bridge; g++) if (inZone(R[g])) end = g;
    const start = f;
    f = end + 1;
    const visit: Array<[number, Rel]> = [];
    for (let g = start; g <= end; g++) if (R[g] && inZone(R[g]) && R[g]!.seen) visit.push([g, R[g]!]);
    if (visit.length < 2) continue;
    // A ball held near the rim for seconds (a player standing under it) is no shot.
    if ((end - start) / fps > 4) continue;
    const sizes = visit.map(([, p]) => p.s).sort((a, b) => a - b);
    if (!plausibleSize({ u: 0, v: 0, s: sizes[sizes.length >> 1], seen: true })) continue;
    // It must have come from elsewhere: seen outside the zone, or not seen at all, just before.
    let fromElsewhere = start === 0;
    for (let g = Math.max(0, start - Math.round(fps * 1.5)); g < start && !fromElsewhere; g++) if (!R[g] || !inZone(R[g])) fromElsewhere = true;
    if (!fromElsewhere) continue;
    const seenAbove = visit.some(([, p]) => p.v < -0.5 && Math.abs(p.u) < 1.6);
    // Closest approach to the ring (ellipse-ish: vertical distances count double).
    let closest = Infinity, rimFrame = visit[0][0];
    for (const [g, p] of visit) {
      const d = Math.hypot(p.u, 2 * p.v);
      if (d < closest) { closest = d; rimFrame = g; }
    }
    if (!seenAbove || closest > 1.3) continue;
    const { through, outAfter } = passage(R, start, Math.min(n - 1, end + Math.round(fps * 0.8)), fps);
    attempts.push({ rim: rimId, startFrame: start, rimFrame, endFrame: end, made: through && !outAfter, evidence: { through, outAfter, closest: Math.round(closest * 100) / 100, seenAbove } });
  }
  return attempts;
}

/**
 * Through: a seen ball above the ring (v < −0.1, within 1.1 widths across) followed within half a
 * second by a seen ball below it (v > 0.35) inside the ring's column (|u| < 0.6). Out after: once
 * below, the ball comes back above the ring near it (a bounce off the rim's underside or the far
 * rim seen in projection), which a made ball never does.
 */
function passage(R: Array<Rel | null>, from: number, to: number, fps: number): { through: boolean; outAfter: boolean } {
  const half = Math.round(fps * 0.5);
  let throughAt = -1;
  for (let a = from; a <= to && throughAt < 0; a++) {
    const pa = R[a];
    if (!pa?.seen || pa.v >= -0.1 || Math.abs(pa.u) > 1.1) continue;
    for (let b = a + 1; b <= Math.min(to, a + half); b++) {
      const pb = R[b];
      if (pb?.seen && pb.v > 0.35 && Math.abs(pb.u) < 0.6) { throughAt = b; break; }
    }
  }
  if (throughAt < 0) return { through: false, outAfter: false };
  let outAfter = false;
  for (let g = throughAt + 1; g <= Math.min(R.length - 1, throughAt + Math.round(fps * 0.6)); g++) {
    const p = R[g];
    if (p?.seen && p.v < -0.3 && Math.abs(p.u) < 1.5) { outAfter = true; break; }
  }
  return { through: true, outAfter };
}
