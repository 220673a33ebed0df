// How far a shot was taken from the hoop when the court could not be calibrated: a pinhole-camera
// estimate from two things of known size in the picture. A standing player is about 1.8 m tall and
// a rim's box about 0.56 m wide, so their sizes in pixels give their distances from the camera, and their
// positions across the picture give their lateral offsets. It ignores the camera's height and tilt
// and assumes a typical phone or gym camera field of view (70° across the long side), so it is a
// best available estimate (a metre or two off), used only to call 2 or 3 points; shots keep
// `shot_world_normed: null`. The lens matters only along the camera's axis: an offset across the
// picture is its pixels over the thing's own scale whatever the lens, while a depth grows with the
// focal length. So a side view gives the distance nearly free of the lens, and a view from behind
// or in front does not: shotDistanceRange gives the distances the picture allows over a range of
// lenses, for a rule that must not lean on the assumed one.
import type { Box, Point } from "../types.ts";

export const PLAYER_HEIGHT_M = 1.8;
/**
 * The rim's box across, as the rim watch gives it (m): wider than the ring's 0.45 m (the ring's tube,
 * the net's hooks, the box's margin). Measured on the real views registered from the court's lines
 * (docs/analysis.md, "The rim box's width"): the floor's scale at the basket against the box's
 * gives 0.52–0.59 m on the four tuning clips with right views (20 views). Taken as 0.45 m, every
 * rim came out a fifth nearer than it was, and the distances to it short.
 */
export const RIM_BOX_WIDTH_M = 0.56;
/** Assumed horizontal field of view across the picture's long side (about a phone's 27 mm-equivalent main camera). */
const FIELD_OF_VIEW_DEG = 70;
/** A 35 mm-equivalent focal length is defined on a full frame's diagonal (36 × 24 mm). */
const FULL_FRAME_DIAGONAL_MM = 43.27;

/** The focal length in pixels: of a 35 mm-equivalent lens (`lensMm`), else of the assumed field of view. */
function focalPx(frameWidth: number, frameHeight: number, lensMm?: number | null): number {
  if (lensMm != null) return (Math.hypot(frameWidth, frameHeight) * lensMm) / FULL_FRAME_DIAGONAL_MM;
  return Math.max(frameWidth, frameHeight) / (2 * Math.tan((FIELD_OF_VIEW_DEG / 2) * (Math.PI / 180)));
}

/** The 35 mm-equivalent focal length (mm) of a lens `focalPx` pixels long on a picture of this size. */
export function equivalentLensMm(focalPixels: number, frameWidth: number, frameHeight: number): number {
  return (focalPixels * FULL_FRAME_DIAGONAL_MM) / Math.hypot(frameWidth, frameHeight);
}

export interface CourtFreeShot {
  /** Shooter's feet, source pixels. */
  feet: Point;
  /** Shooter's standing height in source pixels (the track's median box height). */
  playerHeight: number;
  /** The rim ring, source pixels. */
  rim: Box;
  frameWidth: number;
  frameHeight: number;
}

/**
 * Where a thing of known size stands, seen from the camera: [across (m, right of the picture's
 * middle), depth (m)], from its size in pixels (`sizePx` for `sizeM`) and its centre across the
 * picture (`x`, source pixels), through a 35 mm-equivalent lens of `lensMm` (absent or null: the
 * assumed field of view); null without a size. `across` is the same through any lens.
 */
export function placeBySize(x: number, sizePx: number, sizeM: number, frameWidth: number, frameHeight: number, lensMm?: number | null): Point | null {
  if (!(sizePx > 0)) return null;
  const f = focalPx(frameWidth, frameHeight, lensMm);
  const depth = (f * sizeM) / sizePx;
  return [((x - frameWidth / 2) * depth) / f, depth];
}

/** The shooter (standing `playerHeight` px tall) and the rim placed by their sizes, in the frame of placeBySize; null when either has no size. */
export function placeShotBySize(s: CourtFreeShot, lensMm?: number | null): { shooter: Point; rim: Point } | null {
  const shooter = placeBySize(s.feet[0], s.playerHeight, PLAYER_HEIGHT_M, s.frameWidth, s.frameHeight, lensMm);
  const rim = placeBySize(s.rim.cx, s.rim.w, RIM_BOX_WIDTH_M, s.frameWidth, s.frameHeight, lensMm);
  return shooter && rim ? { shooter, rim } : null;
}

export function estimateShotDistance(s: CourtFreeShot, lensMm?: number | null): number | null {
  const at = placeShotBySize(s, lensMm);
  return at ? Math.hypot(at.shooter[0] - at.rim[0], at.shooter[1] - at.rim[1]) : null;
}

/**
 * The shooter's distance to the rim through the widest and through the longest lens of a range
 * (35 mm-equivalent mm): [shortest, longest] (m), null without sizes. The distance grows with the
 * focal length (only its depth part does), so every lens between gives a distance between; a side
 * view's range is narrow, a view from behind or in front wide.
 */
export function shotDistanceRange(s: CourtFreeShot, widestLensMm: number, longestLensMm: number): [number, number] | null {
  const shortest = estimateShotDistance(s, widestLensMm), longest = estimateShotDistance(s, longestLensMm);
  return shortest !== null && longest !== null ? [shortest, longest] : null;
}

/** The three-point line is 6.75 m from the hoop (6.6 m in the corners, which this estimate cannot tell apart). */
export const THREE_POINT_DISTANCE_M = 6.75;
