// How far a shot was taken from the hoop when the court could not be calibrated: a pinhole-camera
// estimate from two things of known size in the picture. A standing player is about 1.8 m tall and
// a rim is 0.45 m wide, so their sizes in pixels give their distances from the camera, and their
// positions across the picture give their lateral offsets. It ignores the camera's height and tilt
// and assumes a typical phone or gym camera field of view (70° across the long side), so it is a
// best available estimate (a metre or two off), used only to call 2 or 3 points; shots keep
// `shot_world_normed: null`.
import type { Box, Point } from "../types.ts";

export const PLAYER_HEIGHT_M = 1.8;
export const RIM_WIDTH_M = 0.45;
/** Assumed horizontal field of view across the picture's long side. */
const FIELD_OF_VIEW_DEG = 70;

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
 * picture (`x`, source pixels); null without a size.
 */
export function placeBySize(x: number, sizePx: number, sizeM: number, frameWidth: number, frameHeight: number): Point | null {
  if (!(sizePx > 0)) return null;
  const f = Math.max(frameWidth, frameHeight) / (2 * Math.tan((FIELD_OF_VIEW_DEG / 2) * (Math.PI / 180)));
  const depth = (f * sizeM) / sizePx;
  return [((x - frameWidth / 2) * depth) / f, depth];
}

/** The shooter (standing `playerHeight` px tall) and the rim placed by their sizes, in the frame of placeBySize; null when either has no size. */
export function placeShotBySize(s: CourtFreeShot): { shooter: Point; rim: Point } | null {
  const shooter = placeBySize(s.feet[0], s.playerHeight, PLAYER_HEIGHT_M, s.frameWidth, s.frameHeight);
  const rim = placeBySize(s.rim.cx, s.rim.w, RIM_WIDTH_M, s.frameWidth, s.frameHeight);
  return shooter && rim ? { shooter, rim } : null;
}

export function estimateShotDistance(s: CourtFreeShot): number | null {
  const at = placeShotBySize(s);
  return at ? Math.hypot(at.shooter[0] - at.rim[0], at.shooter[1] - at.rim[1]) : null;
}

/** The three-point line is 6.75 m from the hoop (6.6 m in the corners, which this estimate cannot tell apart). */
export const THREE_POINT_DISTANCE_M = 6.75;
