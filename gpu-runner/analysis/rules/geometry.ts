// Court geometry: a homography from the painted key's four corners maps image points on the
// floor to court metres, which gives shot positions, 2 vs 3 points and the free-throw spot.
import type { Point } from "../types.ts";
import { fitHomography } from "../../vision/homography.ts";

/** FIBA dimensions (metres). Court frame: origin at the hoop's baseline centre, x into the court, y across. */
export const COURT_GEOMETRY = {
  halfLength: 14,
  width: 15,
  hoopFromBaseline: 1.575,
  keyLength: 5.8,
  keyWidth: 4.9,
  threeRadius: 6.75,
  threeCornerY: 6.6,
};

export const HOOP_WORLD: Point = [COURT_GEOMETRY.hoopFromBaseline, 0];
export const FT_SPOT_WORLD: Point = [COURT_GEOMETRY.keyLength, 0];
/** Key corners in court metres, in order: baseline left, baseline right, free-throw right, free-throw left. */
export const KEY_WORLD: Point[] = [
  [0, -COURT_GEOMETRY.keyWidth / 2],
  [0, COURT_GEOMETRY.keyWidth / 2],
  [COURT_GEOMETRY.keyLength, COURT_GEOMETRY.keyWidth / 2],
  [COURT_GEOMETRY.keyLength, -COURT_GEOMETRY.keyWidth / 2],
];

export type Homography = number[]; // row-major 3×3, h[8] = 1

/** The homography taking four correspondences src → dst exactly (the DLT of vision/homography.ts), or null when degenerate. */
export function homographyFrom4(src: Point[], dst: Point[]): Homography | null {
  return src.length === 4 && dst.length === 4 ? fitHomography(src, dst) : null;
}

export function applyH(h: Homography, p: Point): Point {
  const w = h[6] * p[0] + h[7] * p[1] + h[8];
  return [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w];
}

export function invertH(h: Homography): Homography {
  const [a, b, c, d, e, f, g, i, k] = h;
  const A = e * k - f * i, B = -(d * k - f * g), C = d * i - e * g;
  const det = a * A + b * B + c * C;
  const inv = [A, -(b * k - c * i), b * f - c * e, B, a * k - c * g, -(a * f - c * d), C, -(a * i - b * g), a * e - b * d].map((x) => x / det);
  return inv.map((x) => x / inv[8]);
}

export function isThreePointWorld(p: Point): boolean {
  if (Math.abs(p[1]) >= COURT_GEOMETRY.threeCornerY) return true;
  return Math.hypot(p[0] - HOOP_WORLD[0], p[1] - HOOP_WORLD[1]) > COURT_GEOMETRY.threeRadius;
}

export function distanceToFtSpot(p: Point): number {
  return Math.hypot(p[0] - FT_SPOT_WORLD[0], p[1] - FT_SPOT_WORLD[1]);
}

/** Half-court coordinates in 0..1: [across the court from one sideline, distance from the baseline / half length]. */
export function worldNormed(p: Point): Point {
  const clamp = (x: number) => Math.max(0, Math.min(1, x));
  return [clamp((p[1] + COURT_GEOMETRY.width / 2) / COURT_GEOMETRY.width), clamp(p[0] / COURT_GEOMETRY.halfLength)];
}


export function signedArea(q: Point[]): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) {
    const a = q[i], b = q[(i + 1) % q.length];
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

/**
 * Assigns the quad's corners to the key's world corners. Orientation: a camera above the floor
 * never sees it mirrored, so the image quad is put in the same winding as KEY_WORLD maps to
 * (counter-clockwise in image coordinates with y down). Rotation: the rim sits straight above
 * its floor point, so the labelling whose homography puts the hoop's floor point under the rim wins.
 */
export function courtHomography(quad: Point[], rim: Point): { worldToImage: Homography; imageToWorld: Homography } | null {
  let q = [...quad];
  if (signedArea(q) > 0) q = q.reverse();
  let best: Homography | null = null, bestErr = Infinity;
  for (let r = 0; r < 4; r++) {
    const img = [0, 1, 2, 3].map((i) => q[(i + r) % 4]);
    const h = homographyFrom4(KEY_WORLD, img);
    if (!h) continue;
    const foot = applyH(h, HOOP_WORLD);
    // The floor point must be below the rim in the image and nearly vertically under it.
    const err = Math.abs(foot[0] - rim[0]) + (foot[1] < rim[1] ? 1e6 : 0);
    if (err < bestErr) { bestErr = err; best = h; }
  }
  if (!best) return null;
  const worldToImage = best;
  const imageToWorld = homographyFrom4([0, 1, 2, 3].map((i) => applyH(worldToImage, KEY_WORLD[i])), KEY_WORLD)!;
  return { worldToImage, imageToWorld };
}
