// Shot attempts and makes from the ball's path around one rim, in the rim's own units: positions are
// measured from the ring's centre in rim widths (u across, v down), so the same rules hold for a
// distant side view (a 20-pixel rim) and a close-up (a 250-pixel rim).
//
// An attempt is the ball arriving at the ring from above: it comes close to the ring (within about
// a rim width) having been seen higher up shortly before, or seen going down through it, and it was
// not simply held there. It is
// made when the ball is seen passing down through the ring (above it, then below it inside its
// width, and not back above it afterwards) and, where the net can be watched, the net moves. A camera
// under the ring (a close-up from below) never sees the ball above it: there the ball seen falling
// from the ring down through the net's column is both the arrival and the passage.
import type { Box } from "../types.ts";
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

/**
 * Every rule's threshold, in the rim's units (rim widths: u across, v down from the ring's centre),
 * seconds, or the net's movement (mean absolute change, 0–255). Taken as options so a bench can sweep them.
 */
export const ATTEMPT_DEFAULTS = {
  /** The ball is at the ring within this many rim widths (vertical distance counting double: the ring is seen flattened). */
  NEAR_RIM_WIDTHS: 1.3,
  /** Ball sizes (rim widths) that can be at the ring's depth: much bigger or smaller is nearer the camera or across the court. */
  BALL_SIZE_MIN_RIM_WIDTHS: 0.2,
  BALL_SIZE_MAX_RIM_WIDTHS: 1.2,
  /** A ball lost while falling is carried on at its last speed for this long (the detector misses it where it overlaps the rim; chosen on the tuning clips). */
  HEADING_IN_S: 0.3,
  /** Near-ring frames this close are one arrival (hidden by the net or board, rolling on the rim). */
  ARRIVAL_BRIDGE_S: 0.9,
  /**
   * It came down from above: seen this far above the ring… (0.3, not 0.5: close-ups and low views
   * lose the ball against the board or out of the picture soon after it passes the ring's height;
   * chosen on the tuning clips, docs/analysis.md "Settings chosen on the tuning part")
   */
  FROM_ABOVE_RIM_WIDTHS: 0.3,
  /** …within this many rim widths across… */
  FROM_ABOVE_ACROSS_RIM_WIDTHS: 2.5,
  /** …in this long before the arrival… */
  FROM_ABOVE_LOOKBACK_S: 1.5,
  /** …and later at the ring at least this much lower. */
  FROM_ABOVE_DROP_RIM_WIDTHS: 0.3,
  /** Held, not shot: near the ring for more than this in the preceding HELD_LOOKBACK_S… */
  HELD_BEFORE_S: 1.0,
  HELD_LOOKBACK_S: 2,
  /** …or near it for longer than this at once. */
  LONGEST_ARRIVAL_S: 4,
  /** The passage through the ring is looked for from this long before the arrival to this long after its end. */
  PASSAGE_BEFORE_S: 0.5,
  PASSAGE_AFTER_S: 0.8,
  /** Above the ring: v below this (rim widths), within this far across. */
  ABOVE_RING_V: -0.1,
  ABOVE_RING_ACROSS_RIM_WIDTHS: 1.2,
  /** Below the ring inside its column: just below (v, |u|) or in the net (v, |u|). */
  JUST_BELOW_V: 0.25,
  JUST_BELOW_ACROSS_RIM_WIDTHS: 0.6,
  IN_NET_V: 0.6,
  IN_NET_ACROSS_RIM_WIDTHS: 0.75,
  /**
   * A ball that bounced on the rim (came down onto the ring, then rose this many rim widths again before
   * it went down through) goes in only through the ring's clearance (chosen on the tuning clips: a
   * direct shot's path wobbles 0–0.43 by the detector, a bounce rises 0.5–2)…
   */
  BOUNCE_RISE_RIM_WIDTHS: 0.5,
  /**
   * …its centre crossing the ring's plane within this many rim widths of the ring's centre across the
   * picture: (ring 45.7 cm − ball 24 cm) / 2 over 45.7 cm, from the rule books, not fitted.
   */
  RING_CLEARANCE_RIM_WIDTHS: 0.24,
  /** From above to below the ring within this long (a ball can sit on the rim before dropping). */
  THROUGH_WITHIN_S: 0.8,
  /** A continuous path moves at most this many rim widths per second (a jump is another object). */
  PATH_SPEED_RIM_WIDTHS_PER_S: 15,
  /** Out after: once below, back above the ring (v below this, within this far across) within this long. */
  OUT_AFTER_V: -0.3,
  OUT_AFTER_ACROSS_RIM_WIDTHS: 1.5,
  OUT_AFTER_WITHIN_S: 0.6,
  /** The net's usual movement is its median from this long before the arrival until this long before it. */
  NET_BEFORE_FROM_S: 2,
  NET_BEFORE_TO_S: 0.2,
  /** Its movement after the arrival is its largest in this long. */
  NET_AFTER_S: 1.0,
  /** A net whose usual movement is above this is not still enough to judge by. */
  NET_CALM_MAX: 3,
  /** Made through the ring: the net moved at least this many times its usual movement. */
  NET_MADE_RATIO: 1.5,
  /** Made without a seen passage (lost inside the net): the net moved this many times its usual movement (chosen on the tuning clips)… */
  NET_STRONG_RATIO: 9,
  /** …and the ball was seen within this many rim widths of the ring. */
  NET_STRONG_CLOSEST_RIM_WIDTHS: 0.75,
  /**
   * Fell from the ring through the net (a camera under the ring, which never sees the ball above it):
   * seen at the ring, then lower on every later sighting, inside the net's column (this many rim
   * widths either side of the ring's centre)…
   */
  FELL_ACROSS_RIM_WIDTHS: 0.75,
  /** …down to this far below the ring's centre (a net hangs about 0.9 ring widths; chosen on the tuning clips, docs/analysis.md)… */
  FELL_TO_V: 0.9,
  /** …in at least this many sightings, within THROUGH_WITHIN_S of the first one at the ring. */
  FELL_MIN_SIGHTINGS: 3,
};

export type AttemptSettings = typeof ATTEMPT_DEFAULTS;

export interface AttemptOptions {
  fps: number;
  /** Per-frame motion in the net (mean absolute change), when the region around the rim was watched. */
  netMotion?: number[];
  settings?: Partial<AttemptSettings>;
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

/** Distance from the ring in rim widths; the ring is seen as a flat ellipse, so vertical distance counts double. */
const nearness = (p: Rel) => Math.hypot(p.u, 2 * p.v);

export function detectAttempts(ball: Array<BallObs | null>, rimBoxes: Box[], rimId: number, opts: AttemptOptions): Attempt[] {
  const o = { ...ATTEMPT_DEFAULTS, ...opts.settings };
  const fps = opts.fps;
  const n = ball.length;
  const R = ball.map((b, f) => rel(b, rimBoxes[Math.min(f, rimBoxes.length - 1)]));
  const ahead = headingIn(R, Math.max(1, Math.round(fps * o.HEADING_IN_S)));
  const at = (f: number): Rel | null => (R[f]?.seen ? R[f] : ahead[f]);
  // A ball much bigger or smaller than half a rim is elsewhere in depth (a pass near the camera, a ball across the court).
  const plausibleSize = (s: number) => s > o.BALL_SIZE_MIN_RIM_WIDTHS && s < o.BALL_SIZE_MAX_RIM_WIDTHS;
  const isNear = (f: number) => {
    const p = at(f);
    return !!p && nearness(p) <= o.NEAR_RIM_WIDTHS && plausibleSize(p.s);
  };
  const bridge = Math.round(fps * o.ARRIVAL_BRIDGE_S);
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
    for (let g = Math.max(0, start - Math.round(fps * o.FROM_ABOVE_LOOKBACK_S)); g <= end && !fromAbove; g++) {
      const p = R[g];
      if (!p?.seen || p.v >= -o.FROM_ABOVE_RIM_WIDTHS || Math.abs(p.u) >= o.FROM_ABOVE_ACROSS_RIM_WIDTHS) continue;
      for (let h = Math.max(g + 1, start); h <= end && !fromAbove; h++) if (isNear(h) && at(h)!.v > p.v + o.FROM_ABOVE_DROP_RIM_WIDTHS) fromAbove = true;
    }
    // Or, seen from under the ring, it fell from the ring down through the net.
    const passageFrom = Math.max(0, start - Math.round(fps * o.PASSAGE_BEFORE_S)), passageTo = Math.min(n - 1, end + Math.round(fps * o.PASSAGE_AFTER_S));
    const fellAt = fellThroughNet(R, start, passageTo, fps, o, isNear);
    // Or it was seen going down through the ring (above it, then below it inside its column): it
    // came from above, however little above the ring it was seen (a close-up from below sees the
    // ball on top of the ring, a fraction of a rim width above its centre).
    const { through, outAfter } = passage(R, passageFrom, passageTo, fps, o, fellAt, isNear);
    if (!fromAbove && !through) continue;
    // Not a ball held at the ring for seconds (a player standing under it with the ball raised).
    let heldBefore = 0;
    for (let g = Math.max(0, start - Math.round(fps * o.HELD_LOOKBACK_S)); g < start; g++) if (isNear(g)) heldBefore++;
    if (heldBefore > fps * o.HELD_BEFORE_S || (end - start) / fps > o.LONGEST_ARRIVAL_S) continue;
    let closest = Infinity;
    for (let g = start; g <= end; g++) if (R[g]?.seen) closest = Math.min(closest, nearness(R[g]!));
    // Arrived only where it was heading: the closest it was seen is its last sighting before.
    for (let g = start - 1; g >= 0 && closest === Infinity; g--) if (R[g]?.seen) closest = nearness(R[g]!);
    const netRatio = opts.netMotion ? netMovement(opts.netMotion, start, fps, o) : null;
    attempts.push({ rim: rimId, rimFrame: start, endFrame: end, made: madeFrom(through, outAfter, netRatio, closest, o), evidence: { through, outAfter, closest: round2(closest), netRatio: netRatio === null ? null : round2(netRatio) } });
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
 * dropping behind the rim looks like a make in projection but does not move the net: NET_MADE_RATIO).
 * A ball the detector lost inside the net still counts as made when the net moved strongly
 * (NET_STRONG_RATIO), the ball was seen at the ring itself (`closest` within
 * NET_STRONG_CLOSEST_RIM_WIDTHS: a ball that stayed a rim width away did not go in, whatever shook
 * the net) and was not seen bouncing back up.
 */
export function madeFrom(through: boolean, outAfter: boolean, netRatio: number | null, closest = 0, o: AttemptSettings = ATTEMPT_DEFAULTS): boolean {
  if (outAfter) return false;
  if (netRatio === null) return through;
  return (through && netRatio >= o.NET_MADE_RATIO) || (netRatio >= o.NET_STRONG_RATIO && closest <= o.NET_STRONG_CLOSEST_RIM_WIDTHS);
}

/**
 * The net's largest movement after the arrival (NET_AFTER_S) over its median movement before it
 * (NET_BEFORE_*). Null where the net's surroundings are not still enough for that to mean anything
 * (above NET_CALM_MAX: a moving camera, leaves behind a close-up net): there the path alone decides.
 */
function netMovement(net: number[], at: number, fps: number, o: AttemptSettings): number | null {
  const after = net.slice(at, Math.min(net.length, at + Math.round(fps * o.NET_AFTER_S)));
  const before = net.slice(Math.max(0, at - Math.round(fps * o.NET_BEFORE_FROM_S)), Math.max(0, at - Math.round(fps * o.NET_BEFORE_TO_S))).sort((a, b) => a - b);
  if (!after.length || !before.length) return null;
  const base = before[before.length >> 1];
  if (base > o.NET_CALM_MAX) return null;
  return Math.max(...after) / Math.max(1, base);
}

/**
 * Through: a seen ball above the ring (ABOVE_RING_*) followed within THROUGH_WITHIN_S (a ball can sit
 * on the rim before dropping) by a seen ball below the ring inside its column (JUST_BELOW_*, or in the
 * net: IN_NET_*), along a continuous path (no step faster than PATH_SPEED_RIM_WIDTHS_PER_S: a jump is
 * another object, not the ball); or, where it was never seen above the ring, its fall from the ring
 * down through the net (`fellAt`, fellThroughNet: the frame it reached the net's bottom, -1 if it did
 * not). Out after: once below, the ball comes back above the ring near it (OUT_AFTER_*: a bounce off
 * the far rim seen in projection), which a made ball never does.
 */
function passage(R: Array<Rel | null>, from: number, to: number, fps: number, o: AttemptSettings, fellAt: number, isNear: (f: number) => boolean): { through: boolean; outAfter: boolean } {
  const window = Math.round(fps * o.THROUGH_WITHIN_S);
  const below = (p: Rel) => (p.v > o.JUST_BELOW_V && Math.abs(p.u) < o.JUST_BELOW_ACROSS_RIM_WIDTHS) || (p.v > o.IN_NET_V && Math.abs(p.u) < o.IN_NET_ACROSS_RIM_WIDTHS);
  const maxStep = Math.max(1, o.PATH_SPEED_RIM_WIDTHS_PER_S / fps);
  let throughAt = -1, bouncedOff = false;
  for (let a = from; a <= to && throughAt < 0; a++) {
    const pa = R[a];
    if (!pa?.seen || pa.v >= o.ABOVE_RING_V || Math.abs(pa.u) > o.ABOVE_RING_ACROSS_RIM_WIDTHS) continue;
    let last = pa, lastF = a;
    // The path's last sighting on or above the ring's plane, and the next below it: the plane crossing.
    let onPlaneF = a, crossing = pa.u;
    for (let b = a + 1; b <= Math.min(to, a + window); b++) {
      const pb = R[b];
      if (!pb?.seen) continue;
      if (Math.hypot(pb.u - last.u, pb.v - last.v) > maxStep * (b - lastF)) break;
      if (pb.v <= 0) onPlaneF = b;
      else if (last.v <= 0) crossing = last.u + ((pb.u - last.u) * -last.v) / (pb.v - last.v);
      if (below(pb)) {
        if (Math.abs(crossing) <= o.RING_CLEARANCE_RIM_WIDTHS || riseAfterRing(R, from, onPlaneF, isNear, o) < o.BOUNCE_RISE_RIM_WIDTHS) throughAt = b;
        else {
          // Every later start before b walks to this same crossing: look on from b.
          bouncedOff = true;
          a = b;
        }
        break;
      }
      last = pb;
      lastF = b;
    }
  }
  // A fall through the net stands in for a passage never seen from above, not for one the rim refused.
  if (throughAt < 0 && !bouncedOff) throughAt = fellAt;
  if (throughAt < 0) return { through: false, outAfter: false };
  let outAfter = false;
  for (let g = throughAt + 1; g <= Math.min(R.length - 1, throughAt + Math.round(fps * o.OUT_AFTER_WITHIN_S)); g++) {
    const p = R[g];
    if (p?.seen && p.v < o.OUT_AFTER_V && Math.abs(p.u) < o.OUT_AFTER_ACROSS_RIM_WIDTHS) { outAfter = true; break; }
  }
  return { through: true, outAfter };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * How far the ball rose again after it came down onto the ring (rim widths): the most any seen
 * sighting from `from` to `to` lies above the lowest near-ring sighting before it, counting only
 * near-ring sightings after the ball was seen above the ring. A bounce on the rim, where a direct
 * shot only wobbles by the detector's error; a lay-up's ball rising past the ring from below is no
 * landing.
 */
function riseAfterRing(R: Array<Rel | null>, from: number, to: number, isNear: (f: number) => boolean, o: AttemptSettings): number {
  let lowest = -Infinity, rise = 0, seenAbove = false;
  for (let g = from; g <= to; g++) {
    const p = R[g];
    if (!p?.seen) continue;
    if (seenAbove && isNear(g)) lowest = Math.max(lowest, p.v);
    if (p.v < o.ABOVE_RING_V) seenAbove = true;
    rise = Math.max(rise, lowest - p.v);
  }
  return rise;
}

/**
 * The ball fell from the ring down through the net: a seen ball at the ring (`isNear`) inside the
 * net's column (FELL_ACROSS_RIM_WIDTHS either side of its centre), then seen lower on every later
 * sighting, still inside the column, along a continuous path (PATH_SPEED_RIM_WIDTHS_PER_S), reaching
 * FELL_TO_V below the ring's centre within THROUGH_WITHIN_S, FELL_MIN_SIGHTINGS sightings in all.
 * What a camera under the ring sees of a shot going in (it never sees the ball above the ring); a ball
 * that stops falling, rises again or leaves the column is not falling through the net. Returns the
 * frame the ball reached FELL_TO_V, or -1.
 */
function fellThroughNet(R: Array<Rel | null>, from: number, to: number, fps: number, o: AttemptSettings, isNear: (f: number) => boolean): number {
  const maxStep = Math.max(1, o.PATH_SPEED_RIM_WIDTHS_PER_S / fps);
  const window = Math.round(fps * o.THROUGH_WITHIN_S);
  const inColumn = (p: Rel) => Math.abs(p.u) < o.FELL_ACROSS_RIM_WIDTHS;
  for (let a = from; a <= to; a++) {
    const pa = R[a];
    if (!pa?.seen || !isNear(a) || !inColumn(pa)) continue;
    let last = pa, lastF = a, sightings = 1;
    for (let b = a + 1; b <= Math.min(to, a + window); b++) {
      const pb = R[b];
      if (!pb?.seen) continue;
      if (!inColumn(pb) || pb.v <= last.v || Math.hypot(pb.u - last.u, pb.v - last.v) > maxStep * (b - lastF)) break;
      last = pb;
      lastF = b;
      if (++sightings >= o.FELL_MIN_SIGHTINGS && pb.v >= o.FELL_TO_V) return b;
    }
  }
  return -1;
}
