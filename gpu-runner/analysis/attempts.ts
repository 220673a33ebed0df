// Shot attempts and makes from the ball's path around one rim, in the rim's own units: positions are
// measured from the ring's centre in rim widths (u across, v down), so the same rules hold for a
// distant side view (a 20-pixel rim) and a close-up (a 250-pixel rim).
//
// An attempt is the ball arriving at the ring from above: it comes close to the ring (within about
// a rim width) having been seen higher up shortly before, and it was not simply held there. It is
// made when the ball is seen passing down through the ring (above it, then below it inside its
// width, and not back above it afterwards) and, where the net can be watched, the net moves.
import type { Box } from "./types.ts";
import type { BallObs } from "./tracks.ts";

export interface Attempt {
  rim: number;
  /** First frame the ball was close to the ring. */
  rimFrame: number;
  /** Last frame of the approach (the ball left the ring's neighbourhood). */
  endFrame: number;
  made: boolean;
  /** Why, for the bench and the artifacts. */
  evidence: AttemptEvidence;
}

export interface AttemptEvidence {
  /** The path went down through the ring. */
  through: boolean;
  /** After going below, the ball came back above the ring (a bounce out). */
  outAfter: boolean;
  /** Closest approach, in rim widths (vertical distances count double). */
  closest: number;
  /** Net movement after the arrival over its usual movement before; null when not measured. */
  netRatio: number | null;
}

export interface AttemptOptions {
  fps: number;
  /** Per-frame motion in the net (mean absolute change), when the region around the rim was watched. */
  netMotion?: number[];
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

/** Within about a rim width of the ring (the ellipse is flat: vertical distance counts double). */
const NEAR = 1.3;
const nearness = (p: Rel) => Math.hypot(p.u, 2 * p.v);
/** A ball much bigger or smaller than half a rim is elsewhere in depth (a pass near the camera, a ball across the court). */
const plausibleSize = (s: number) => s > 0.2 && s < 1.2;

export function detectAttempts(ball: Array<BallObs | null>, rimBoxes: Box[], rimId: number, opts: AttemptOptions): Attempt[] {
  const fps = opts.fps;
  const n = ball.length;
  const R = ball.map((b, f) => rel(b, rimBoxes[Math.min(f, rimBoxes.length - 1)]));
  const ahead = headingIn(R, Math.max(1, Math.round(fps * 0.15)));
  const at = (f: number): Rel | null => (R[f]?.seen ? R[f] : ahead[f]);
  const isNear = (f: number) => {
    const p = at(f);
    return !!p && nearness(p) <= NEAR && plausibleSize(p.s);
  };
  const bridge = Math.round(fps * 0.9);
  const attempts: Attempt[] = [];
  let f = 0;
  while (f < n) {
    if (!isNear(f)) { f++; continue; }
    // One arrival: near-ring frames joined across short gaps (the ball hidden by the net or board,
    // or sitting on the rim while the detector loses it).
    const start = f;
    let end = f;
    for (let g = f + 1; g < n && g - end <= bridge; g++) if (isNear(g)) end = g;
    f = end + 1;
    // It came down from above: seen at least half a rim width above the ring, in the 1.5 s before or
    // during the approach, and later at the ring lower than that (a jump shot's descent, a lay-up's
    // drop from its peak, a ball that came into a close-up's frame just above the ring).
    let fromAbove = false;
    for (let g = Math.max(0, start - Math.round(fps * 1.5)); g <= end && !fromAbove; g++) {
      const p = R[g];
      if (!p?.seen || p.v >= -0.5 || Math.abs(p.u) >= 2.5) continue;
      for (let h = Math.max(g + 1, start); h <= end && !fromAbove; h++) if (isNear(h) && at(h)!.v > p.v + 0.3) fromAbove = true;
    }
    if (!fromAbove) continue;
    // Not a ball held at the ring for seconds (a player standing under it with the ball raised).
    let heldBefore = 0;
    for (let g = Math.max(0, start - Math.round(fps * 2)); g < start; g++) if (isNear(g)) heldBefore++;
    if (heldBefore > fps * 1.0 || (end - start) / fps > 4) continue;
    let closest = Infinity;
    for (let g = start; g <= end; g++) if (R[g]?.seen) closest = Math.min(closest, nearness(R[g]!));
    // Arrived only where it was heading: the closest it was seen is its last sighting before.
    for (let g = start - 1; g >= 0 && closest === Infinity; g--) if (R[g]?.seen) closest = nearness(R[g]!);
    const { through, outAfter } = passage(R, Math.max(0, start - Math.round(fps * 0.5)), Math.min(n - 1, end + Math.round(fps * 0.8)), fps);
    const netRatio = opts.netMotion ? netMovement(opts.netMotion, start, fps) : null;
    attempts.push({ rim: rimId, rimFrame: start, endFrame: end, made: madeFrom(through, outAfter, netRatio, closest), evidence: { through, outAfter, closest: round2(closest), netRatio: netRatio === null ? null : round2(netRatio) } });
  }
  return attempts;
}

/**
 * Where a falling ball was heading when it was lost: the detector often misses the ball in the last
 * frames before the ring, where it overlaps the rim, the board or a hand. After a seen ball that was
 * coming down and is not seen in the next `horizon` frames, those frames get its position carried on
 * at its last speed (not seen: they never count as a passage, nor as the ball being at the ring for a
 * make), so a ball that was a frame or two from the ring still arrives there.
 */
function headingIn(R: Array<Rel | null>, horizon: number): Array<Rel | null> {
  const out: Array<Rel | null> = new Array(R.length).fill(null);
  for (let f = 1; f < R.length; f++) {
    const p = R[f];
    if (!p?.seen) continue;
    let e = f - 1;
    while (e >= 0 && !R[e]?.seen) e--;
    if (e < 0 || f - e > horizon) continue;
    const q = R[e]!, du = (p.u - q.u) / (f - e), dv = (p.v - q.v) / (f - e);
    if (dv <= 0) continue;
    for (let k = 1; k <= horizon && f + k < R.length && !R[f + k]?.seen; k++) out[f + k] ??= { u: p.u + du * k, v: p.v + dv * k, s: p.s, seen: false };
  }
  return out;
}

/**
 * The call: the path going down through the ring decides, unless the net stayed still (a ball
 * dropping behind the rim looks like a make in projection but does not move the net). A ball the
 * detector lost inside the net still counts as made when the net moved strongly, the ball was
 * seen at the ring itself (`closest`, in rim widths: a ball that stayed a rim width away did not go
 * in, whatever shook the net) and was not seen bouncing back up.
 */
export function madeFrom(through: boolean, outAfter: boolean, netRatio: number | null, closest = 0): boolean {
  if (outAfter) return false;
  if (netRatio === null) return through;
  return (through && netRatio >= 1.5) || (netRatio >= 6 && closest <= 0.75);
}

/**
 * The net's largest movement in the second after the arrival over its median movement in the two
 * seconds before. Null where the net's surroundings are not still enough for that to mean anything
 * (a moving camera, leaves behind a close-up net): there the path alone decides.
 */
function netMovement(net: number[], at: number, fps: number): number | null {
  const after = net.slice(at, Math.min(net.length, at + Math.round(fps * 1.0)));
  const before = net.slice(Math.max(0, at - Math.round(fps * 2)), Math.max(0, at - Math.round(fps * 0.2))).sort((a, b) => a - b);
  if (!after.length || !before.length) return null;
  const base = before[before.length >> 1];
  if (base > NET_CALM) return null;
  return Math.max(...after) / Math.max(1, base);
}

/** Mean absolute change (0–255) below which a net counts as still. */
const NET_CALM = 3;

/**
 * Through: a seen ball above the ring (v < −0.1, within 1.2 widths across) followed within 0.8 s
 * (a ball can sit on the rim before dropping) by a seen ball below the ring inside its column:
 * just below (v > 0.25, the ball's centre past the ring with |u| < 0.6) or in the net (v > 0.6,
 * |u| < 0.75), along a continuous path (no sighting more than a rim width a frame from the
 * previous one: a jump is another object, not the ball). Out after: once below, the ball comes
 * back above the ring near it (a bounce off the far rim seen in projection), which a made ball
 * never does.
 */
function passage(R: Array<Rel | null>, from: number, to: number, fps: number): { through: boolean; outAfter: boolean } {
  const window = Math.round(fps * 0.8);
  const below = (p: Rel) => (p.v > 0.25 && Math.abs(p.u) < 0.6) || (p.v > 0.6 && Math.abs(p.u) < 0.75);
  const maxStep = Math.max(1, 15 / fps);
  let throughAt = -1;
  for (let a = from; a <= to && throughAt < 0; a++) {
    const pa = R[a];
    if (!pa?.seen || pa.v >= -0.1 || Math.abs(pa.u) > 1.2) continue;
    let last = pa, lastF = a;
    for (let b = a + 1; b <= Math.min(to, a + window); b++) {
      const pb = R[b];
      if (!pb?.seen) continue;
      if (Math.hypot(pb.u - last.u, pb.v - last.v) > maxStep * (b - lastF)) break;
      if (below(pb)) { throughAt = b; break; }
      last = pb;
      lastF = b;
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

const round2 = (x: number) => Math.round(x * 100) / 100;
