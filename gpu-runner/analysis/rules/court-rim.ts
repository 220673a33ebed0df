// A registered court must put its basket under the rim that was seen (issue 25, point 1). The court
// is registered from painted lines alone and the rim is found by the detector on its own, so each
// checks the other: a wrong court (laid on a fence, a wall's stripes, another sport's lines) puts
// its basket wherever its lines fell, while a right one puts the floor point under the basket's
// centre straight below the ring. Both are measured at the rim box's own scale (its width is
// RIM_BOX_WIDTH_M at the ring's depth, and the floor point below is at nearly the same depth), so the
// test needs no lens:
// - across the picture, the ring's centre lies within a little of its floor point (a camera held
//   about level; the ring hangs straight above it);
// - the ring is above its floor point by about its 3.05 m, foreshortened by the camera's tilt;
// - the floor's scale along the picture's x at that point is the box's (a court squeezed or
//   stretched against the rim is another court, or the right court in another place).
import type { Box } from "../types.ts";
import type { H3, Pt } from "../../vision/homography.ts";
import { COURT_TEMPLATES, type CourtTypeId } from "./court-template.ts";
import { RIM_BOX_WIDTH_M } from "./distance.ts";

/**
 * Measured on the tuning clips' right views (docs/analysis.md, "The basket under the rim"): across
 * −0.36…0.20 m, height 2.74…3.17 m, scale ratio 0.93…1.08; wrong views across 0.62…6.4 m, scale
 * ratio 0.19…2.55. Each bound leaves about 30 % or more around the right views.
 */
export const COURT_RIM_DEFAULTS = {
  /** The ring's centre at most this far (m) across the picture from the floor point under the basket, */
  MAX_ACROSS_M: 0.5,
  /** this far above it (m; the ring is 3.05 m up, foreshortened by the camera's tilt), */
  MIN_HEIGHT_M: 1.5,
  MAX_HEIGHT_M: 4.35,
  /** and the floor's scale there over the rim box's (px per m along the picture's x) within these. */
  MIN_SCALE_RATIO: 0.72,
  MAX_SCALE_RATIO: 1.4,
};
export type CourtRimSettings = typeof COURT_RIM_DEFAULTS;

export interface BasketAgainstRim {
  /** The ring's centre right of the basket's floor point (m at the rim box's scale). */
  acrossM: number;
  /** The ring's centre above it (m at the rim box's scale). */
  heightM: number;
  /** The floor's scale along the picture's x at the basket's floor point over the rim box's. */
  scaleRatio: number;
}

/** Where a view (court metres → picture pixels) puts the basket against a rim box in the same picture; null when the basket is behind the camera. */
export function basketAgainstRim(h: H3, type: CourtTypeId, rim: Box): BasketAgainstRim | null {
  const at: Pt = [COURT_TEMPLATES[type].basketFromBaseline, 0];
  const w = h[6] * at[0] + h[7] * at[1] + h[8];
  if (!(w > 0) || !(rim.w > 0)) return null;
  const u = (h[0] * at[0] + h[1] * at[1] + h[2]) / w, v = (h[3] * at[0] + h[4] * at[1] + h[5]) / w;
  // The view's derivative there (pixels per court metre), and the court step that moves one pixel along x.
  const dudx = (h[0] - u * h[6]) / w, dudy = (h[1] - u * h[7]) / w, dvdx = (h[3] - v * h[6]) / w, dvdy = (h[4] - v * h[7]) / w;
  const det = dudx * dvdy - dudy * dvdx;
  if (det === 0) return null;
  const floorPxPerM = Math.abs(det) / Math.hypot(dvdy, dvdx);
  const rimPxPerM = rim.w / RIM_BOX_WIDTH_M;
  return { acrossM: (rim.cx - u) / rimPxPerM, heightM: (v - rim.cy) / rimPxPerM, scaleRatio: floorPxPerM / rimPxPerM };
}

/** Whether a view puts its basket under one of the rims seen in its picture (none seen: no). */
export function basketUnderRim(h: H3, type: CourtTypeId, rims: readonly Box[], settings: CourtRimSettings = COURT_RIM_DEFAULTS): boolean {
  const o = settings;
  return rims.some((rim) => {
    const m = basketAgainstRim(h, type, rim);
    return !!m && Math.abs(m.acrossM) <= o.MAX_ACROSS_M && m.heightM >= o.MIN_HEIGHT_M && m.heightM <= o.MAX_HEIGHT_M && m.scaleRatio >= o.MIN_SCALE_RATIO && m.scaleRatio <= o.MAX_SCALE_RATIO;
  });
}
