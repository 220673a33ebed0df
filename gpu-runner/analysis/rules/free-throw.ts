// Free throws (issue 25, point 2), one rule in two measures: the shooter stood still in a set stance
// for a pause before the release (a free throw is taken from a set stance, a field goal off a
// dribble, a catch or a step) at the free-throw line; others lined up along the key, when seen, make
// a shorter pause enough. On a court registered from its lines (freeThrowCall) "at the line" is the
// feet at the registered type's free-throw line and stillness is in court metres (the frame of
// rules/court-template.ts: x from the baseline, y across, 0 in the middle). Without a registered
// court (courtFreeFreeThrowCall) "at the line" is the shooter's distance to the rim as sizes in the
// picture allow it over a range of lenses (rules/distance.ts) and stillness is in the shooter's own
// standing heights.
import type { CourtTemplate } from "./court-template.ts";
import type { Point } from "../types.ts";
import { PLAYER_HEIGHT_M } from "./distance.ts";

export const FREE_THROW_DEFAULTS = {
  /** The feet at the release lie at most this far behind the free-throw line (m): shooters stand just behind it, and feet seen through a homography land within about half a metre. */
  BEHIND_LINE_M: 1.0,
  /** …and at most this far in front of it (m): the line is not crossed before the ball leaves, but a box's foot point lands a little ahead of the heels. */
  IN_FRONT_M: 0.4,
  /** …and at most this far across from the key's middle (m). */
  ACROSS_M: 0.9,
  /** Stood still: the feet stayed within this distance (m) of where they were at the release… */
  STILL_RADIUS_M: 0.5,
  /** …for at least this long (s) before it. A jump shot from the same spot follows a dribble or a catch that moves the feet sooner. */
  PAUSE_S: 2.0,
  /** …with the feet seen on at least this share of the frames of that pause (a shooter hidden for most of it is not called). */
  PAUSE_SEEN_SHARE: 0.5,
  /** Lined up along the key: another person's feet at most this far outside a lane line (m), between the basket and the free-throw line. */
  LANE_SPACE_M: 1.2,
  /** With at least this many lined up (a game's free throw), the line-up says it too and a pause of LINED_UP_PAUSE_S (s) is enough. */
  LINED_UP_MIN: 2,
  LINED_UP_PAUSE_S: 0.8,
};

/** The shooter's feet on the frames before the release, `s` seconds before it (null: not seen then). */
export type FeetBefore = Array<{ s: number; feet: Point | null }>;

export interface FreeThrowInput {
  template: CourtTemplate;
  /** The shooter's feet at the release. */
  feet: Point;
  before: FeetBefore;
  /** Everyone else's feet at the release. */
  others: Point[];
}

export interface FreeThrowCall {
  freeThrow: boolean;
  /** The feet at the release were at the free-throw line (without a registered court: the estimated distance was the free-throw distance). */
  atLine: boolean;
  /** How long (s) the feet stayed still before the release (a lower bound: up to the first move or the first frame looked at). */
  stillS: number;
  /** How many others stood along the key's lane lines. */
  linedUp: number;
  /** `registered`: the line and the stillness were measured on a court registered from its lines; `not_registered`: the distance to the rim was estimated from sizes in the picture (rules/distance.ts). */
  court: "registered" | "not_registered";
  /** The shooter's feet to the basket's centre (m): on the registered court, else the estimate (null: none could be made). */
  distanceM: number | null;
  /** Without a registered court only: the shooter was seen stepping into the stance (the pause did not run back to the first frame looked at). */
  steppedIn?: boolean;
  /** Without a registered court only: the distances (m) the picture allows over the lenses the rule considers. */
  distanceRangeM?: [number, number] | null;
  /** Without a registered court only: the 35 mm-equivalent lens the file names (mm), which `distanceM` and the range were measured through (draftShots adds it); null: the assumed lens and the range of lenses. */
  lensMm?: number | null;
}

/**
 * The pause before the release, the part both measures share: walking back from the release until
 * the feet are seen farther than `radius` from where they were at the release (`stillS`), and
 * whether they stayed for `pauseS`, seen on at least `seenShare` of the frames looked at in it (a
 * shooter hidden for most of it is not called; a pause cut by the video's start is not one).
 * `feet` and `radius` are in one unit: court metres, or the shooter's standing heights.
 */
export function stillPause(feet: Point, before: FeetBefore, radius: number, pauseS: number, seenShare: number): { stillS: number; held: boolean } {
  const samples = [...before].sort((a, b) => a.s - b.s);
  let stillS = 0;
  for (const x of samples) {
    if (x.feet && Math.hypot(x.feet[0] - feet[0], x.feet[1] - feet[1]) > radius) break;
    stillS = x.s;
  }
  const inPause = samples.filter((x) => x.s <= pauseS);
  const seen = inPause.filter((x) => x.feet !== null).length;
  return { stillS, held: stillS >= pauseS && inPause.length > 0 && seen >= seenShare * inPause.length };
}

/** Half the key's width `x` metres from the baseline (the pre-2010 FIBA key narrows toward the line). */
function laneHalfWidth(t: CourtTemplate, x: number): number {
  const k = Math.max(0, Math.min(1, x / t.freeThrowFromBaseline));
  return (t.keyWidthBaseline + (t.keyWidthFreeThrow - t.keyWidthBaseline) * k) / 2;
}

export function freeThrowCall(input: FreeThrowInput, o = FREE_THROW_DEFAULTS): FreeThrowCall {
  const { template: t, feet } = input;
  const behind = feet[0] - t.freeThrowFromBaseline;
  const atLine = behind >= -o.IN_FRONT_M && behind <= o.BEHIND_LINE_M && Math.abs(feet[1]) <= o.ACROSS_M;
  const linedUp = input.others.filter((p) => {
    if (p[0] < t.basketFromBaseline || p[0] > t.freeThrowFromBaseline) return false;
    const out = Math.abs(p[1]) - laneHalfWidth(t, p[0]);
    return out >= 0 && out <= o.LANE_SPACE_M;
  }).length;
  const pause = stillPause(feet, input.before, o.STILL_RADIUS_M, linedUp >= o.LINED_UP_MIN ? o.LINED_UP_PAUSE_S : o.PAUSE_S, o.PAUSE_SEEN_SHARE);
  const distanceM = Math.hypot(feet[0] - t.basketFromBaseline, feet[1]);
  return { freeThrow: atLine && pause.held, atLine, stillS: pause.stillS, linedUp, court: "registered", distanceM };
}

/**
 * The same rule without a registered court (real footage where the lines were not found): the
 * shooter's distance to the rim, placed by the shooter's height and the rim's width in the picture
 * (rules/distance.ts), may be the free-throw distance through some lens a video is filmed with, and
 * the shooter stood still for the pause, measured in the shooter's own standing heights. The
 * distance window is wide because sizes place things a metre or so off, and along the camera's axis
 * the lens is unknown (from behind or in front the range spans metres), so it cannot tell the line
 * from a step inside or behind it: the pause has to say more than on a registered court. It is
 * longer (a free-throw routine, the ball handed over and a few dribbles with the feet set, usually
 * lasts 3 s or more; a drill's set shot is often taken sooner), and the shooter must be seen
 * stepping into the stance: a shooter already standing still on the video's first frame (a drill
 * clip cut at the set) is not called. On the tuning clips a 2 s pause, or a pause without the step
 * in, called set shots from mid-range free throws (docs/analysis.md).
 */
export const COURT_FREE_FREE_THROW_DEFAULTS = {
  /** At the line: the distances from the shooter's feet to the rim's centre that the picture allows (over the lenses below) reach into this window, from this… (m; the line is 4.19 m from the basket's centre in NBA, NCAA and high-school rules, 15 ft from the backboard, and 4.225 m in FIBA's; the feet stand just behind it) */
  MIN_DISTANCE_M: 3.3,
  /** …to this (m). */
  MAX_DISTANCE_M: 5.3,
  /** The lenses a video may have been filmed with, as 35 mm-equivalent focal lengths (mm): from a phone's 0.5× ultra-wide (13 mm)… The sizes in the picture fix a distance across it whatever the lens, but along the camera's axis only up to the lens: from behind the shooter a 5× telephoto shows a free throw as a 70° lens shows a shot from under 2 m. */
  WIDEST_LENS_MM: 13,
  /** …to its 5× telephoto (120 mm); gym and stock cameras zoom further, which this leaves out. */
  LONGEST_LENS_MM: 120,
  /** When the file names its lens (media/lens.ts), the range is that lens over and times this: a stabilised or digitally zoomed picture is cropped from the sensor's, so it sees through a somewhat longer lens than the tag says, and sizes place things a little off. */
  TAGGED_LENS_SPREAD: 1.25,
  /** Stood still: the feet, taken relative to the rim in the picture (a panning camera moves both alike), stayed within this many of the shooter's standing heights of where they were at the release (FREE_THROW_DEFAULTS' 0.5 m over a 1.8 m player)… */
  STILL_RADIUS_HEIGHTS: FREE_THROW_DEFAULTS.STILL_RADIUS_M / PLAYER_HEIGHT_M,
  /** …for at least this long (s) before it, seen on at least PAUSE_SEEN_SHARE of those frames. */
  PAUSE_S: 3.0,
  PAUSE_SEEN_SHARE: FREE_THROW_DEFAULTS.PAUSE_SEEN_SHARE,
  /** The shooter is seen stepping into the stance (the feet seen away from it) within this many seconds before the release; 0: not asked. */
  STEP_IN_WITHIN_S: 10,
  /** Lined up beside the lane: another person placed by size between the shooter and the rim (along the line joining them), this far across from that line at least (m; the lane's half width is 1.8–2.45 m)… */
  LANE_ACROSS_MIN_M: 1.2,
  /** …and at most (m; half the lane and its spaces, widened for the estimate's error). */
  LANE_ACROSS_MAX_M: 4.5,
  /** With at least this many lined up, on both sides of that line, each still for LINED_UP_PAUSE_S (s), that pause is enough for the shooter too. */
  LINED_UP_MIN: FREE_THROW_DEFAULTS.LINED_UP_MIN,
  LINED_UP_PAUSE_S: FREE_THROW_DEFAULTS.LINED_UP_PAUSE_S,
};
export type CourtFreeFreeThrowSettings = typeof COURT_FREE_FREE_THROW_DEFAULTS;

/** A person as the court-free rule sees them: feet relative to the rim in the picture, in their own standing heights, now and before the release; and where they stand placed by size (rules/distance.ts placeBySize: [across, depth] from the camera, m). */
export interface SizedPerson {
  feet: Point;
  before: FeetBefore;
  at: Point;
}

export interface CourtFreeFreeThrowInput {
  /** The shooter's estimated distance to the rim through the assumed lens, or the one the file names (m; null: no estimate), for the evidence. */
  distanceM: number | null;
  /** The distances the picture allows over WIDEST_LENS_MM–LONGEST_LENS_MM, or around the lens the file names (rules/distance.ts shotDistanceRange; null: no estimate): what "at the line" is judged on. */
  distanceRangeM: [number, number] | null;
  shooter: SizedPerson;
  /** The rim placed by its width, in the frame of `shooter.at`. */
  rim: Point;
  /** Everyone else seen at the release. */
  others: SizedPerson[];
}

export function courtFreeFreeThrowCall(input: CourtFreeFreeThrowInput, o: CourtFreeFreeThrowSettings = COURT_FREE_FREE_THROW_DEFAULTS): FreeThrowCall {
  const { distanceM, distanceRangeM, shooter, rim } = input;
  const atLine = distanceRangeM !== null && distanceRangeM[1] >= o.MIN_DISTANCE_M && distanceRangeM[0] <= o.MAX_DISTANCE_M;
  // Lined up: still, between the shooter and the rim, beside the line joining them, on both sides.
  const axis: Point = [rim[0] - shooter.at[0], rim[1] - shooter.at[1]];
  const length = Math.hypot(axis[0], axis[1]);
  let left = 0, right = 0;
  if (length > 0)
    for (const p of input.others) {
      const d: Point = [p.at[0] - shooter.at[0], p.at[1] - shooter.at[1]];
      const along = (d[0] * axis[0] + d[1] * axis[1]) / length;
      const across = (axis[0] * d[1] - axis[1] * d[0]) / length;
      if (along <= 0 || along >= length || Math.abs(across) < o.LANE_ACROSS_MIN_M || Math.abs(across) > o.LANE_ACROSS_MAX_M) continue;
      if (!stillPause(p.feet, p.before, o.STILL_RADIUS_HEIGHTS, o.LINED_UP_PAUSE_S, o.PAUSE_SEEN_SHARE).held) continue;
      if (across > 0) left++;
      else right++;
    }
  const linedUp = left + right;
  const shortPause = linedUp >= o.LINED_UP_MIN && left > 0 && right > 0;
  const pause = stillPause(shooter.feet, shooter.before, o.STILL_RADIUS_HEIGHTS, shortPause ? o.LINED_UP_PAUSE_S : o.PAUSE_S, o.PAUSE_SEEN_SHARE);
  // The walk back stopped at a move (not at the first frame looked at, nor at the video's start).
  const lookedBackS = shooter.before.filter((x) => x.s <= o.STEP_IN_WITHIN_S).reduce((m, x) => Math.max(m, x.s), 0);
  const steppedIn = o.STEP_IN_WITHIN_S <= 0 || pause.stillS < lookedBackS;
  return { freeThrow: atLine && pause.held && steppedIn, atLine, stillS: pause.stillS, linedUp, court: "not_registered", distanceM, steppedIn, distanceRangeM };
}
