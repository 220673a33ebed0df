// A registered court must put its basket under the rim that was seen (issue 25, point 1). The court
// is registered from painted lines alone and the rim is found by the detector on its own, so each
// checks the other: a wrong court (laid on a fence, a wall's stripes, another sport's lines) puts
// its basket wherever its lines fell, while a right one puts the floor point under the basket's
// centre straight below the ring. Three measures at the rim box's own scale (its width is
// RIM_BOX_WIDTH_M at the ring's depth, and the floor point below is at nearly the same depth), which
// need no lens:
// - across the picture, the ring's centre lies within a little of its floor point (a camera held
//   about level; the ring hangs straight above it);
// - the ring is above its floor point by about its 3.05 m, foreshortened by the camera's tilt;
// - the floor's scale along the picture's x at that point is the box's (a court squeezed or
//   stretched against the rim is another court, or the right court in another place).
// And one through the view's own camera (vision/homography.ts, planeCamera): the ring 3.05 m over
// the basket must land where the box is. A court of the wrong rule book fitted to the same painted
// lines puts its basket in nearly the same place, but only by implying another camera (another lens,
// height and tilt), and that camera sees the ring elsewhere: on brettfazio_gym_formshooting_2shots
// (its lines found by the learned mask measured in docs/analysis.md) the pre-2010 trapezoid fitted to
// a rectangular key sees it a metre below the rim, the rectangle within 0.03 m.
import type { Box } from "../types.ts";
import { planeCamera, type H3, type Pt } from "../../vision/homography.ts";
import { COURT_TEMPLATES, type CourtTypeId } from "./court-template.ts";
import { RIM_BOX_WIDTH_M } from "./distance.ts";

/**
 * Measured on the tuning clips' right views (docs/analysis.md, "The basket under the rim"): across
 * −0.36…0.20 m, height 2.74…3.17 m, scale ratio 0.93…1.08; wrong views across 0.62…6.4 m, scale
 * ratio 0.19…2.55. Each bound leaves about 30 % or more around the right views. The ring's offset:
 * "The ring where the camera sees it".
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
  /**
   * And the ring, 3.05 m over the basket, seen by the view's camera at most this far (m at the rim
   * box's scale) above or below the box's centre. Right views on the tuning clips: −0.07…0.08 m (the
   * labelled view 0.001 m); wrong rule books and courts: 0.24 m and more (docs/analysis.md).
   */
  MAX_RING_OFF_M: 0.15,
};
export type CourtRimSettings = typeof COURT_RIM_DEFAULTS;

/** The ring's height over the floor (m), the same in every rule book. */
const RING_HEIGHT_M = 3.05;

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

/** Where the camera a view implies (planeCamera, its principal point at the picture's centre) sees the ring's centre; null when no camera has the view or the ring is behind it. */
function ringSeen(h: H3, type: CourtTypeId, picture: { W: number; H: number }): Pt | null {
  return planeCamera(h, picture.W / 2, picture.H / 2)?.project([COURT_TEMPLATES[type].basketFromBaseline, 0, RING_HEIGHT_M]) ?? null;
}

/** How far below a rim box's centre the ring is seen (m at the box's scale; negative: above it). */
const ringOff = (ring: Pt, rim: Box): number => ((ring[1] - rim.cy) * RIM_BOX_WIDTH_M) / rim.w;

/**
 * Where the camera a view implies sees the ring's centre, below the rim box's centre (m at the box's
 * scale; negative: above it); null when no camera has the view or the ring is behind it.
 */
export function ringOffRim(h: H3, type: CourtTypeId, rim: Box, picture: { W: number; H: number }): number | null {
  const ring = ringSeen(h, type, picture);
  return ring && rim.w > 0 ? ringOff(ring, rim) : null;
}

/**
 * The top of the highest rim box (pixels from the picture's top). A camera below the ring sees the
 * whole floor below its horizon, and the ring above it, so no floor line lies higher in the picture.
 */
export function highestRimTop(rims: readonly Box[]): number {
  return Math.min(...rims.map((b) => b.cy - b.h / 2));
}

/** Whether a view of a `picture`-sized picture puts its basket under one of the rims seen in it (none seen: no). */
export function basketUnderRim(h: H3, type: CourtTypeId, rims: readonly Box[], picture: { W: number; H: number }, settings: CourtRimSettings = COURT_RIM_DEFAULTS): boolean {
  const o = settings;
  // The ring as the view's camera sees it is the same for every rim: found once, and only for a
  // view that passes the other measures on some rim (the camera is the dearest measure, and most
  // guesses fail the others).
  let ring: Pt | null | undefined;
  return rims.some((rim) => {
    const m = basketAgainstRim(h, type, rim);
    if (!m || Math.abs(m.acrossM) > o.MAX_ACROSS_M || m.heightM < o.MIN_HEIGHT_M || m.heightM > o.MAX_HEIGHT_M || m.scaleRatio < o.MIN_SCALE_RATIO || m.scaleRatio > o.MAX_SCALE_RATIO) return false;
    if (ring === undefined) ring = ringSeen(h, type, picture);
    return ring !== null && Math.abs(ringOff(ring, rim)) <= o.MAX_RING_OFF_M;
  });
}
