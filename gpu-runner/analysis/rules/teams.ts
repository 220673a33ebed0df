// Teams from jersey colours: 2-means over per-track median shirt colours, over the tracks of people
// playing (not scenery a detector took for a person), and two teams only when they face each other.
import { median } from "../../vision/boxes.ts";
import type { PlayerTrack } from "./tracks.ts";
import type { RGB } from "../types.ts";


export interface TeamClustering {
  centroids: [RGB, RGB];
  /** Team (0|1) per input colour, or null when it sits far from both centroids (referee, fan). */
  labels: Array<0 | 1 | null>;
  /** 1 when every shirt is one colour (a lone shooter, one side only): no opponent is invented. */
  teamCount: 1 | 2;
}

const dist = (a: RGB, b: RGB) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export function clusterTeams(colors: RGB[], weights: number[] = colors.map(() => 1), maxDistance = 60): TeamClustering {
  if (colors.length === 0) return { centroids: [[0, 0, 0], [0, 0, 0]], labels: [], teamCount: 1 };
  // Init from the two heaviest colour modes (weighted histogram of coarse bins), not the farthest
  // point: a few short false tracks (a patch of floor, two shirts blended) must not become a "team".
  const bins = new Map<string, { w: number; c: RGB }>();
  colors.forEach((c, i) => {
    const k = c.map((v) => Math.floor(v / 24)).join(",");
    const b = bins.get(k) ?? { w: 0, c: [0, 0, 0] as RGB };
    b.w += weights[i];
    for (let j = 0; j < 3; j++) b.c[j] += c[j] * weights[i];
    bins.set(k, b);
  });
  const modes = [...bins.values()].map((b) => ({ w: b.w, c: b.c.map((v) => v / b.w) as RGB })).sort((a, b) => b.w - a.w);
  const first = modes[0].c;
  const secondMode = modes.find((m) => dist(m.c, first) > 50);
  // No second shirt colour: one team. Splitting one colour in two (light and shade on the same
  // shirt) would turn a lone shooter into two players of two "teams".
  if (!secondMode) {
    const c = weightedMean(colors, weights, (col) => dist(col, first) <= maxDistance) ?? first;
    return { centroids: [c, c], labels: colors.map((col) => (dist(col, c) > maxDistance ? null : 0)), teamCount: 1 };
  }
  const second = secondMode.c;
  let cent: [RGB, RGB] = [[...first] as RGB, [...second] as RGB];
  for (let it = 0; it < 20; it++) {
    const next: [RGB, RGB] = [[0, 0, 0], [0, 0, 0]];
    const wsum = [0, 0];
    colors.forEach((c, i) => {
      const d0 = dist(c, cent[0]), d1 = dist(c, cent[1]);
      // Outliers do not move the centroids.
      if (Math.min(d0, d1) > maxDistance) return;
      const l = d0 <= d1 ? 0 : 1;
      wsum[l] += weights[i];
      for (let k = 0; k < 3; k++) next[l][k] += c[k] * weights[i];
    });
    for (const l of [0, 1] as const) next[l] = wsum[l] ? (next[l].map((v) => v / wsum[l]) as RGB) : cent[l];
    const moved = dist(next[0], cent[0]) + dist(next[1], cent[1]);
    cent = next;
    if (moved < 0.5) break;
  }
  // Team ids are arbitrary; order them by brightness so the same game always gets the same ids.
  const bright = (c: RGB) => c[0] + c[1] + c[2];
  const swap = bright(cent[0]) < bright(cent[1]);
  if (swap) cent = [cent[1], cent[0]];
  return {
    centroids: cent,
    teamCount: 2,
    labels: colors.map((c) => {
      const d0 = dist(c, cent[0]), d1 = dist(c, cent[1]);
      const l: 0 | 1 = d0 <= d1 ? 0 : 1;
      return Math.min(d0, d1) > maxDistance ? null : l;
    }),
  };
}

export const TEAM_DEFAULTS = {
  /** A track whose box centre stays within this many box heights of its median spot over its whole life… */
  SCENERY_SPREAD_HEIGHTS: 0.25,
  /** …which, with the other still tracks at its spot, lasts at least this long (s, the tracks' durations added up), and that does not hold the ball, is scenery, not a person playing. */
  SCENERY_MIN_S: 1.0,
  /** …and that is on screen beside a person who moves or holds the ball for at least this long (s, the spot's tracks together). */
  SCENERY_BESIDE_S: 0.5,
  /** Holding the ball is owning it for at least this long (s): a ball flying past a box in the picture is owned for a frame or two. */
  HOLDS_BALL_S: 0.3,
  /** Still tracks that do not hold the ball, within this many box heights of each other's spot, are one spot: the same thing seen again. */
  SCENERY_SAME_SPOT_HEIGHTS: 0.5,
  /** Two teams face each other: a track of each on screen together for at least this long (s). */
  OPPONENTS_TOGETHER_S: 0.5,
};


/**
 * Tracks that are scenery, not people playing: a wall fixture, a poster or a hoop pad the detector
 * took for a person stays put for a second or more and does not hold the ball (a real shooter who
 * stands still at the line holds it), while someone else moves or holds the ball beside it (a lone
 * shooter standing still whose ball the detector lost is the only person in view, not scenery). Their shirt colour must not open a "team": on a lone shooter's
 * clip a static box on the wall became "Light shirts 0" beside the shooter's "Dark shirts 4".
 * A spot is judged, not a track: the detector often sees such a thing on and off, so its tracks
 * end and start again at the same place (chonyy_outdoor_45deg_2x_3shots: a fixture on the wall seen
 * as seven tracks of 0–0.8 s each, 3.2 s in all), and each alone is too short to tell.
 * `owners` is the ball's owner track per frame (rules/possession.ts ownersPerFrame).
 */
export function sceneryTracks(tracks: PlayerTrack[], owners: Array<number | null>, fps: number, o = TEAM_DEFAULTS): Set<number> {
  const held = new Map<number, number>();
  for (const t of owners) if (t !== null) held.set(t, (held.get(t) ?? 0) + 1);
  const holdsBall = (t: PlayerTrack) => (held.get(t.id) ?? 0) >= o.HOLDS_BALL_S * fps;
  const spot = (t: PlayerTrack) => ({ x: median(t.boxes.map((b) => b.cx)), y: median(t.boxes.map((b) => b.cy)), h: median(t.boxes.map((b) => b.h)) });
  const still = (t: PlayerTrack) => {
    const c = spot(t);
    return t.boxes.every((b) => Math.hypot(b.cx - c.x, b.cy - c.y) <= o.SCENERY_SPREAD_HEIGHTS * c.h);
  };
  const candidates = tracks.filter((t) => t.boxes.length > 0 && !holdsBall(t) && still(t));
  // Still beside someone playing: a lone person standing still (a shooter the ball detector lost)
  // is the only person in view, not scenery.
  const playing = new Set<number>();
  for (const t of tracks) if (!candidates.includes(t)) for (const f of t.frames) playing.add(f);
  // Spots: still tracks within SCENERY_SAME_SPOT_HEIGHTS of one another (the smaller box's height, so that a
  // person passing in front, a box twice the size, does not join a fixture's spot) are one.
  const spots = candidates.map(spot);
  const spotOf = candidates.map((_, i) => i);
  const root = (i: number): number => (spotOf[i] === i ? i : (spotOf[i] = root(spotOf[i])));
  for (let i = 0; i < candidates.length; i++)
    for (let j = i + 1; j < candidates.length; j++) {
      const a = spots[i], b = spots[j];
      if (Math.hypot(a.x - b.x, a.y - b.y) <= o.SCENERY_SAME_SPOT_HEIGHTS * Math.min(a.h, b.h)) spotOf[root(j)] = root(i);
    }
  const out = new Set<number>();
  for (const r of new Set(candidates.map((_, i) => root(i)))) {
    const atSpot = candidates.filter((_, i) => root(i) === r);
    const lastedS = atSpot.reduce((s, t) => s + (t.frames[t.frames.length - 1] - t.frames[0]) / fps, 0);
    const beside = new Set(atSpot.flatMap((t) => t.frames.filter((f) => playing.has(f)))).size;
    if (lastedS >= o.SCENERY_MIN_S && beside >= o.SCENERY_BESIDE_S * fps) for (const t of atSpot) out.add(t.id);
  }
  return out;
}

/**
 * A team needs an opponent: two colour clusters that were never on screen together (one person in
 * sun and shade, a drill filmed in two takes) are one side, relabelled team 0 with `teamCount: 1`,
 * rather than two teams of which one is invented. `frames[i]` are the frames of the track coloured `colors[i]`.
 */
export function requireOpponent(clustering: TeamClustering, frames: number[][], fps: number, o = TEAM_DEFAULTS): TeamClustering {
  if (clustering.teamCount === 1) return clustering;
  const onScreen = [new Set<number>(), new Set<number>()];
  clustering.labels.forEach((l, i) => {
    if (l !== null) for (const f of frames[i]) onScreen[l].add(f);
  });
  let together = 0;
  for (const f of onScreen[0]) if (onScreen[1].has(f)) together++;
  if (together >= o.OPPONENTS_TOGETHER_S * fps) return clustering;
  const weights = clustering.labels.map((_, i) => frames[i].length);
  const all = clustering.labels.map((l, i) => (l === null ? null : i)).filter((i): i is number => i !== null);
  const w = all.reduce((a, i) => a + weights[i], 0);
  const c = clustering.centroids;
  const share0 = all.filter((i) => clustering.labels[i] === 0).reduce((a, i) => a + weights[i], 0) / Math.max(w, 1);
  const centroid = [0, 1, 2].map((k) => c[0][k] * share0 + c[1][k] * (1 - share0)) as RGB;
  return { centroids: [centroid, centroid], labels: clustering.labels.map((l) => (l === null ? null : 0)), teamCount: 1 };
}

function weightedMean(colors: RGB[], weights: number[], keep: (c: RGB) => boolean): RGB | null {
  const sum: RGB = [0, 0, 0];
  let w = 0;
  colors.forEach((c, i) => {
    if (!keep(c)) return;
    w += weights[i];
    for (let k = 0; k < 3; k++) sum[k] += c[k] * weights[i];
  });
  return w ? (sum.map((v) => v / w) as RGB) : null;
}

/** Median colour of a grid of points over a box's shirt area; the median ignores the number. */
export function shirtColor(rgb: Buffer, W: number, H: number, box: { cx: number; cy: number; w: number; h: number }): RGB {
  const rs: number[] = [], gs: number[] = [], bs: number[] = [];
  const top = box.cy - box.h / 2;
  for (let iy = 0; iy < 5; iy++)
    for (let ix = 0; ix < 5; ix++) {
      // Shirt and shorts span ~0.18–0.64 of the body box from the top.
      const x = Math.round(box.cx + (ix / 4 - 0.5) * box.w * 0.45);
      const y = Math.round(top + box.h * (0.22 + iy * 0.09));
      if (x < 0 || y < 0 || x >= W || y >= H) continue;
      const o = (y * W + x) * 3;
      rs.push(rgb[o]); gs.push(rgb[o + 1]); bs.push(rgb[o + 2]);
    }
  const med = (a: number[]) => (a.length ? a.sort((p, q) => p - q)[a.length >> 1] : 0);
  return [med(rs), med(gs), med(bs)];
}
