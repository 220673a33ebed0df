// Court templates in metres for the rule books a customer's court may be painted to, and the
// named landmarks (line crossings) and lines of each, so court registration can fit any of them
// and keep the one that fits best. Frame: origin at the centre of the baseline under the basket,
// x into the court (metres from the baseline), y across it; left (y < 0) and right are as seen by
// a player on the court facing the basket. Same frame as analysis/rules/geometry.ts.
import type { Point } from "../types.ts";

// The rule books' dimensions are the contract's (contract/court-types.ts): the hub page draws the
// chart of the type a shot was measured on from the same table.
import { COURT_TEMPLATES, COURT_TYPE_IDS, type CourtTemplate, type CourtTypeId } from "../../../contract/court-types.ts";

export { COURT_TEMPLATES, COURT_TYPE_IDS, type CourtTemplate, type CourtTypeId };

/** Where the straight corner part of the three-point line meets the arc, in metres from the baseline. */
export function threeBreakFromBaseline(t: CourtTemplate): number {
  const d = t.threeRadius ** 2 - t.threeCornerOffset ** 2;
  return t.basketFromBaseline + (d > 0 ? Math.sqrt(d) : 0);
}

/** The named landmarks: places where two painted lines cross or a line ends, in court metres. */
export function courtLandmarks(t: CourtTemplate): Record<string, Point> {
  const kb = t.keyWidthBaseline / 2, kf = t.keyWidthFreeThrow / 2, ft = t.freeThrowFromBaseline;
  const w = t.width / 2, c = t.threeCornerOffset, xb = threeBreakFromBaseline(t);
  return {
    corner_baseline_left: [0, -w],
    corner_baseline_right: [0, w],
    three_corner_left: [0, -c],
    three_corner_right: [0, c],
    baseline_lane_left: [0, -kb],
    baseline_lane_right: [0, kb],
    ft_lane_left: [ft, -kf],
    ft_lane_right: [ft, kf],
    ft_circle_top: [ft + t.freeThrowCircleRadius, 0],
    three_break_left: [xb, -c],
    three_break_right: [xb, c],
    three_top: [t.basketFromBaseline + t.threeRadius, 0],
    midcourt_left: [t.halfLength, -w],
    midcourt_right: [t.halfLength, w],
    midcourt_centre: [t.halfLength, 0],
  };
}

export const LANDMARK_NAMES = Object.keys(courtLandmarks(COURT_TEMPLATES.fiba));

/** A court position is a three when it is beyond the arc, or in the corner beyond the straight part. */
export function isThreePoint(t: CourtTemplate, p: Point): boolean {
  if (Math.abs(p[1]) >= t.threeCornerOffset) return true;
  if (p[0] <= threeBreakFromBaseline(t)) return false;
  return Math.hypot(p[0] - t.basketFromBaseline, p[1]) > t.threeRadius;
}

/**
 * A court position as the API's `shot_world_normed`: [across the court from the left sideline,
 * distance from the baseline / half length], each clamped to 0..1 (the half-court chart's frame,
 * as analysis/rules/geometry.ts's worldNormed for the synthetic court).
 */
export function courtNormed(t: CourtTemplate, p: Point): Point {
  const clamp = (x: number) => Math.max(0, Math.min(1, x));
  return [clamp((p[1] + t.width / 2) / t.width), clamp(p[0] / t.halfLength)];
}

export type CourtSegment = { kind: "segment"; a: Point; b: Point };
export type CourtArc = { kind: "arc"; centre: Point; radius: number; from: number; to: number };
export type CourtLine = (CourtSegment | CourtArc) & { name: string };

/**
 * The half court's painted lines (one half: the hoop the camera looks at). Arc angles are in
 * radians measured from +x (into the court) toward +y.
 */
export function courtLines(t: CourtTemplate): CourtLine[] {
  const lm = courtLandmarks(t);
  const xb = threeBreakFromBaseline(t), c = t.threeCornerOffset;
  const arcHalf = Math.atan2(c, xb - t.basketFromBaseline);
  return [
    { name: "baseline", kind: "segment", a: lm.corner_baseline_left, b: lm.corner_baseline_right },
    { name: "sideline_left", kind: "segment", a: lm.corner_baseline_left, b: lm.midcourt_left },
    { name: "sideline_right", kind: "segment", a: lm.corner_baseline_right, b: lm.midcourt_right },
    { name: "midcourt", kind: "segment", a: lm.midcourt_left, b: lm.midcourt_right },
    { name: "lane_left", kind: "segment", a: lm.baseline_lane_left, b: lm.ft_lane_left },
    { name: "lane_right", kind: "segment", a: lm.baseline_lane_right, b: lm.ft_lane_right },
    { name: "free_throw", kind: "segment", a: lm.ft_lane_left, b: lm.ft_lane_right },
    { name: "ft_circle", kind: "arc", centre: [t.freeThrowFromBaseline, 0], radius: t.freeThrowCircleRadius, from: -Math.PI / 2, to: Math.PI / 2 },
    { name: "three_corner_left", kind: "segment", a: lm.three_corner_left, b: lm.three_break_left },
    { name: "three_corner_right", kind: "segment", a: lm.three_corner_right, b: lm.three_break_right },
    { name: "three_arc", kind: "arc", centre: [t.basketFromBaseline, 0], radius: t.threeRadius, from: -arcHalf, to: arcHalf },
  ];
}
