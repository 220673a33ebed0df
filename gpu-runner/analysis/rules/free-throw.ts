// Free throws on a court registered from its lines (issue 25, point 2): the shooter's feet at the
// release are at the free-throw line of the registered court type, and the shooter stood still
// there before the shot (a free throw is taken from a set stance, a field goal off a dribble, a
// catch or a step); others lined up along the key, when seen, make a shorter pause enough. Court
// metres in the frame of rules/court-template.ts (x from the baseline, y across, 0 in the middle).
import type { CourtTemplate } from "./court-template.ts";
import type { Point } from "../types.ts";

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

export interface FreeThrowInput {
  template: CourtTemplate;
  /** The shooter's feet at the release. */
  feet: Point;
  /** The shooter's feet on the frames before the release, `s` seconds before it (null: not seen then). */
  before: Array<{ s: number; feet: Point | null }>;
  /** Everyone else's feet at the release. */
  others: Point[];
}

export interface FreeThrowCall {
  freeThrow: boolean;
  /** The feet at the release were at the free-throw line. */
  atLine: boolean;
  /** How long (s) the feet stayed still before the release (a lower bound: up to the first move or the first frame looked at). */
  stillS: number;
  /** How many others stood along the key's lane lines. */
  linedUp: number;
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
  // Walk back from the release until the feet are seen away from the spot.
  const samples = [...input.before].sort((a, b) => a.s - b.s);
  let stillS = 0;
  for (const x of samples) {
    if (x.feet && Math.hypot(x.feet[0] - feet[0], x.feet[1] - feet[1]) > o.STILL_RADIUS_M) break;
    stillS = x.s;
  }
  const pause = linedUp >= o.LINED_UP_MIN ? o.LINED_UP_PAUSE_S : o.PAUSE_S;
  const inPause = samples.filter((x) => x.s <= pause);
  const seen = inPause.filter((x) => x.feet !== null).length;
  const freeThrow = atLine && stillS >= pause && inPause.length > 0 && seen >= o.PAUSE_SEEN_SHARE * inPause.length;
  return { freeThrow, atLine, stillS, linedUp };
}
