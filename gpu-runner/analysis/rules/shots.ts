// Shot attempts from the ball's path around a rim, and whether they went in.
import type { HoopTrack, BallObs } from "./tracks.ts";
import type { Box } from "../types.ts";

export interface ShotEvent {
  hoop: number;
  /** First frame the ball is in the zone above the rim. */
  rimFrame: number;
  /** Last frame of the event (the ball has left the rim area). */
  endFrame: number;
  made: boolean;
}

export interface ShotDetectOptions {
  fps: number;
  /** Zone half-width around the rim, in rim widths. */
  zoneHalfWidth?: number;
  /** Zone height above the rim, in rim widths. */
  zoneAbove?: number;
}

function nearRim(b: BallObs, r: Box, o: Required<ShotDetectOptions>) {
  return Math.abs(b.cx - r.cx) < o.zoneHalfWidth * r.w && b.cy < r.cy + 0.4 * r.w && b.cy > r.cy - o.zoneAbove * r.w;
}

/**
 * A shot is the ball entering the zone just above and around a rim after being well away from it
 * (so a player holding the ball near the rim is not a shot). Made: the ball then drops below the
 * rim while staying in the rim's column; a miss leaves the column sideways or never drops through.
 */
export function detectShots(ball: Array<BallObs | null>, hoops: HoopTrack[], opts: ShotDetectOptions): ShotEvent[] {
  const o: Required<ShotDetectOptions> = { zoneHalfWidth: 1.3, zoneAbove: 4, ...opts };
  const events: ShotEvent[] = [];
  const n = ball.length;
  for (const hoop of hoops) {
    let f = 0;
    while (f < n) {
      const b = ball[f];
      if (!b || !nearRim(b, hoop.boxes[f], o)) { f++; continue; }
      // Group the zone visit, bridging short gaps (the ball can be lost behind the net).
      let end = f, g = f + 1;
      while (g < n && g - end <= Math.round(o.fps * 0.25)) {
        const bg = ball[g];
        if (bg && nearRim(bg, hoop.boxes[g], o)) end = g;
        g++;
      }
      const r = hoop.boxes[f];
      // It must arrive from away: a flight, not a ball held up under the rim.
      let cameFromAway = false;
      for (let k = Math.max(0, f - Math.round(o.fps * 2)); k < f; k++) {
        const bk = ball[k];
        if (bk && Math.hypot(bk.cx - r.cx, bk.cy - r.cy) > 3 * r.w) { cameFromAway = true; break; }
      }
      if (cameFromAway) events.push({ hoop: hoop.id, rimFrame: f, endFrame: end, made: wentThrough(ball, hoop, f, Math.min(n - 1, end + Math.round(o.fps * 0.8)), o.fps) });
      f = end + Math.round(o.fps * 0.5);
    }
  }
  return events.sort((a, b) => a.rimFrame - b.rimFrame);
}

/**
 * Hitting the rim takes the ball's downward speed away, so a ball seen at rim level (from 0.6 rim
 * widths above to 0.5 below its centre) in more than this many seconds' worth of frames bounced off
 * it; a clean make falls through that band in about 0.1 s (one frame at 10 fps, measured on the
 * development games: every make 0-1 frames, every miss 3-5).
 */
const RIM_CONTACT_DWELL_S = 0.2;

/**
 * The ball goes in when, after reaching rim level, it is seen at least twice below the rim inside the
 * rim's column and reaches well below it while still inside (through the net), before leaving
 * the column. A rim-out drifts out of the column as it falls; a ball that bounces off the rim towards
 * or away from the camera stays in the column in the image but lingers at rim level first.
 */
export function wentThrough(ball: Array<BallObs | null>, hoop: HoopTrack, from: number, to: number, fps: number): boolean {
  let inside = 0, deepest = 0, atRimLevel = 0;
  for (let f = from; f <= to; f++) {
    const b = ball[f];
    if (!b) continue;
    const r = hoop.boxes[f];
    const below = (b.cy - r.cy) / r.w;
    if (below < 0.5) {
      if (below >= -0.6 && inside === 0 && ++atRimLevel > fps * RIM_CONTACT_DWELL_S) return false;
      continue;
    }
    const col = Math.abs(b.cx - r.cx) / r.w;
    if (col > 0.6) break;
    inside++;
    deepest = Math.max(deepest, below);
    if (deepest > 2.2 && inside >= 2) return true;
    if (f - from > fps) break;
  }
  return false;
}

/**
 * The frame the ball left the shooter's hands, read from the ball path itself: from the apex before
 * the rim, walk back while the ball was still rising. Possession alone is a poor clock, because a
 * shooter's arms and the ball are often hidden by a defender in the last moments.
 */
export function flightStart(ball: Array<BallObs | null>, rimFrame: number, fps: number): number | null {
  return flightStartDetail(ball, rimFrame, fps)?.frame ?? null;
}

/** `held`: the walk ended on a visible ball that was not rising (in hand); false when it ran into a gap. */
export function flightStartDetail(ball: Array<BallObs | null>, rimFrame: number, fps: number, opts: { windowS?: number; contiguous?: boolean } = {}): { frame: number; held: boolean } | null {
  let from = Math.max(0, rimFrame - Math.round(fps * (opts.windowS ?? 2.5)));
  // Only the run of sightings that reaches the rim: a ball seen earlier, across a gap, may be
  // another ball or the previous shot (real footage, where the ball is not seen on every frame).
  if (opts.contiguous) {
    let f = rimFrame;
    while (f - 1 >= from && ball[f - 1]) f--;
    from = f;
  }
  let apex = -1;
  for (let f = from; f <= rimFrame; f++) {
    const b = ball[f];
    if (b && (apex < 0 || b.cy < ball[apex]!.cy)) apex = f;
  }
  if (apex < 0) return null;
  let f = apex;
  let held = false;
  while (f - 1 >= from) {
    const prev = ball[f - 1], cur = ball[f];
    if (!prev || !cur) break;
    held = true;
    // Rising means y decreasing; a still or falling ball (held, dribbled) ends the flight. Near
    // the apex the ball barely moves, so slowness only counts well below the apex.
    const rise = prev.cy - cur.cy;
    if (rise < 0 || (rise < Math.max(0.5, cur.h * 0.15) && cur.cy - ball[apex]!.cy > 2 * cur.h)) break;
    held = false;
    f--;
  }
  return { frame: f, held };
}
