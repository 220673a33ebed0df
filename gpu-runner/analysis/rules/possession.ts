// Who holds the ball, frame by frame, and the possession segments that passes, assists and
// rebounds are read from.
import type { BallObs, PlayerTrack } from "./tracks.ts";

export interface PossessionSegment {
  /** Player key (or track id before identities exist). */
  track: string;
  start: number;
  end: number; // inclusive
}

/**
 * The ball belongs to the player whose (slightly widened) box contains it — widened because the
 * ball is held beside the body and lifted above the head at release. A ball that merely flies past
 * a player is filtered later by the minimum segment length.
 */
export function ownersPerFrame(ball: Array<BallObs | null>, tracks: PlayerTrack[]): Array<number | null> {
  // A held ball is about 0.12 of its holder's height; someone at another depth who merely
  // overlaps in the image has a different ratio, which breaks ties between overlapping boxes.
  const HELD_BALL_RATIO = 0.123;
  const byFrame = new Map<number, Array<{ id: number; box: { cx: number; cy: number; w: number; h: number } }>>();
  for (const t of tracks)
    t.frames.forEach((f, i) => {
      let arr = byFrame.get(f);
      if (!arr) byFrame.set(f, (arr = []));
      arr.push({ id: t.id, box: t.boxes[i] });
    });
  return ball.map((b, f) => {
    if (!b) return null;
    const cands = byFrame.get(f) ?? [];
    let best: number | null = null, bestD = Infinity;
    for (const c of cands) {
      const { cx, cy, w, h } = c.box;
      const dx = Math.abs(b.cx - cx) / (w * 0.8 + b.w * 0.5);
      const top = cy - h / 2 - 0.3 * h, bottom = cy + h / 2;
      if (dx > 1 || b.cy < top || b.cy > bottom) continue;
      const scale = Math.abs(Math.log(Math.max(1e-3, (b.w + b.h) / 2 / h) / HELD_BALL_RATIO));
      const cost = dx + 0.7 * scale;
      if (cost < bestD) { bestD = cost; best = c.id; }
    }
    return best;
  });
}

export function possessionSegments(owners: Array<string | null>, opts: { minFrames: number; bridge: number }): PossessionSegment[] {
  const raw: PossessionSegment[] = [];
  for (let f = 0; f < owners.length; f++) {
    const o = owners[f];
    if (o === null) continue;
    const last = raw[raw.length - 1];
    if (last && last.track === o && f - last.end <= opts.bridge + 1) last.end = f;
    else raw.push({ track: o, start: f, end: f });
  }
  return raw.filter((s) => s.end - s.start + 1 >= opts.minFrames);
}

export function segmentAt(segs: PossessionSegment[], frame: number): PossessionSegment | null {
  for (const s of segs) if (s.start <= frame && frame <= s.end) return s;
  return null;
}

/** The last segment that ends at or before `frame`. */
export function lastSegmentBefore(segs: PossessionSegment[], frame: number): PossessionSegment | null {
  let best: PossessionSegment | null = null;
  for (const s of segs) if (s.end <= frame && (!best || s.end > best.end)) best = s;
  return best;
}

/**
 * The owner held the ball most over [from, to], later frames weighing more (the release matters
 * most) unless `lateWeight` is 0; owners rejected by `eligible` (e.g. players never credited) are skipped.
 */
export function dominantOwner(owners: Array<string | null>, from: number, to: number, opts: { lateWeight?: number; eligible?: (key: string) => boolean } = {}): string | null {
  const lateWeight = opts.lateWeight ?? 1;
  const w = new Map<string, number>();
  for (let f = Math.max(0, from); f <= to && f < owners.length; f++) {
    const o = owners[f];
    if (o === null || (opts.eligible && !opts.eligible(o))) continue;
    w.set(o, (w.get(o) ?? 0) + 1 + (lateWeight * (f - from)) / Math.max(1, to - from));
  }
  let best: string | null = null, bw = 0;
  for (const [k, v] of w) if (v > bw) { bw = v; best = k; }
  return best;
}

/**
 * Joins consecutive segments of the same player when nobody else had the ball in between and no
 * shot happened: a dribble that hides the ball for a moment is still one possession, and the pass
 * that started it is what an assist is read from.
 */
export function mergeSamePlayer(segs: PossessionSegment[], maxGapFrames: number, cuts: number[]): PossessionSegment[] {
  const out: PossessionSegment[] = [];
  for (const s of segs) {
    const last = out[out.length - 1];
    if (last && last.track === s.track && s.start - last.end <= maxGapFrames && !cuts.some((c) => c > last.end && c <= s.start)) last.end = s.end;
    else out.push({ ...s });
  }
  return out;
}

export interface PasserRule {
  /** An opponent holding the ball for more than this many frames took it: no assist. */
  opponentFrames: number;
  /** More frames than this with nobody holding the ball between two segments ends the search. */
  maxGapFrames: number;
  /** Segments ending at or before this frame belong to an earlier play (the previous shot). */
  notBefore: number;
  teamOf: (key: string) => number | null;
  /**
   * True when the ball travelled between the end of `from` and the start of `to` as a pass does.
   * A teammate's segment that hands over without the ball moving is the scorer's own track split
   * under another identity (overlap breaks tracks), not a pass.
   */
  ballTravelled: (fromEnd: number, toStart: number) => boolean;
}

/**
 * The player who made the last pass to `scorer` before the release: walking back from the scorer's
 * possession, the first teammate whose hand-off moved the ball. The scorer's own earlier segments
 * extend the possession (a dribble interrupted by a defender's overlap); an opponent's touch shorter
 * than `opponentFrames` is a ball flying past or a defender covering the receiver, not a steal.
 */
export function lastPasser(segs: PossessionSegment[], scorer: string, release: number, rule: PasserRule): string | null {
  const scorerTeam = rule.teamOf(scorer);
  if (scorerTeam === null) return null;
  let own = -1;
  for (let i = segs.length - 1; i >= 0; i--)
    if (segs[i].track === scorer && segs[i].start <= release) { own = i; break; }
  if (own < 0) return null;
  let chainStart = segs[own].start;
  for (let i = own - 1; i >= 0; i--) {
    const x = segs[i];
    if (x.end >= chainStart) continue;
    if (x.end <= rule.notBefore || chainStart - x.end > rule.maxGapFrames) return null;
    if (x.track === scorer) { chainStart = x.start; continue; }
    if (rule.teamOf(x.track) === scorerTeam) {
      if (rule.ballTravelled(x.end, chainStart)) return x.track;
      chainStart = x.start;
      continue;
    }
    if (x.end - x.start + 1 > rule.opponentFrames) return null;
  }
  return null;
}

/**
 * Who took the rebound of a missed shot: the first player to hold the ball for at least
 * `minFrames` in [from, to), else the first to touch it at all. A falling ball grazes the boxes of
 * players under the rim for a frame or two before someone secures it; the one who secures it gets
 * the rebound.
 */
export function reboundSegment(segs: PossessionSegment[], from: number, to: number, minFrames: number): PossessionSegment | null {
  const candidates = segs.filter((s) => s.start >= from && s.start < to);
  return candidates.find((s) => s.end - s.start + 1 >= minFrames) ?? candidates[0] ?? null;
}
