// Fitting a court template to named image points (labelled landmarks, or line crossings matched
// to the template), and the measures of how well it fits: in metres on the court, where a
// coach reads the error, not in pixels that mean centimetres near the camera and metres far away.
import { applyHomography, fitHomography, invertHomography, type H3 } from "../../vision/homography.ts";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLandmarks, type CourtTypeId } from "./court-template.ts";
import type { Point } from "../types.ts";

export interface NamedPoint {
  name: string;
  x: number;
  y: number;
}

/** Homography court metres → image pixels from named points, or null (fewer than four known names, degenerate). */
export function fitCourt(type: CourtTypeId, points: NamedPoint[]): H3 | null {
  const lm = courtLandmarks(COURT_TEMPLATES[type]);
  const known = points.filter((p) => lm[p.name]);
  if (known.length < 4) return null;
  return fitHomography(known.map((p) => lm[p.name]), known.map((p) => [p.x, p.y] as Point));
}

/** Where an image point lies on the court (metres), through a court → image homography. */
export function imageToCourt(h: H3, p: Point): Point | null {
  const inv = invertHomography(h);
  return inv ? applyHomography(inv, p) : null;
}

/**
 * Leave-one-out error of each named point in metres: the court is fitted on the others and the
 * left-out point's pixel is taken back onto the court, against where the template puts it.
 * Needs five or more points (four fit exactly and check nothing); [] otherwise.
 */
export function leaveOneOutErrors(type: CourtTypeId, points: NamedPoint[]): number[] {
  const lm = courtLandmarks(COURT_TEMPLATES[type]);
  const known = points.filter((p) => lm[p.name]);
  if (known.length < 5) return [];
  const errors: number[] = [];
  for (let i = 0; i < known.length; i++) {
    const h = fitCourt(type, known.filter((_, j) => j !== i));
    const at = h && imageToCourt(h, [known[i].x, known[i].y]);
    errors.push(at ? Math.hypot(at[0] - lm[known[i].name][0], at[1] - lm[known[i].name][1]) : Infinity);
  }
  return errors;
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The court type whose leave-one-out median error is smallest, with every type's median; null below five points. */
export function bestCourtType(points: NamedPoint[]): { type: CourtTypeId; medianError: number; byType: Record<CourtTypeId, number> } | null {
  const byType = Object.fromEntries(COURT_TYPE_IDS.map((id) => [id, median(leaveOneOutErrors(id, points))])) as Record<CourtTypeId, number>;
  const ranked = COURT_TYPE_IDS.filter((id) => Number.isFinite(byType[id])).sort((a, b) => byType[a] - byType[b]);
  return ranked.length ? { type: ranked[0], medianError: byType[ranked[0]], byType } : null;
}
