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

export function estimateShotDistance(s: CourtFreeShot): number | null {
  if (!(s.playerHeight > 0 && s.rim.w > 0)) return null;
  const f = Math.max(s.frameWidth, s.frameHeight) / (2 * Math.tan((FIELD_OF_VIEW_DEG / 2) * (Math.PI / 180)));
  const cx = s.frameWidth / 2;
  const zShooter = (f * PLAYER_HEIGHT_M) / s.playerHeight;
  const zRim = (f * RIM_WIDTH_M) / s.rim.w;
  const xShooter = ((s.feet[0] - cx) * zShooter) / f;
  const xRim = ((s.rim.cx - cx) * zRim) / f;
  return Math.hypot(xShooter - xRim, zShooter - zRim);
}

/** The three-point line is 6.75 m from the hoop (6.6 m in the corners, which this estimate cannot tell apart). */
export const THREE_POINT_DISTANCE_M = 6.75;
