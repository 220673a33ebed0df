// Plane-to-plane homography from point correspondences: a least-squares direct linear transform
// on Hartley-normalised points (each side moved to its centroid and scaled to a mean distance of
// √2, so pixels in the hundreds and metres in units weigh alike), and RANSAC over it for
// correspondences with outliers (line crossings matched to the wrong court corner).
// Row-major 3×3, h[8] = 1: the same layout as analysis/rules/geometry.ts's `Homography`.
import { seededRandom } from "./random.ts";

export type Pt = [number, number];
export type H3 = number[];

export const HOMOGRAPHY_DEFAULTS = {
  /** RANSAC: a correspondence is an inlier when it reprojects within this many destination units. */
  INLIER_DISTANCE: 3,
  /** RANSAC: samples of four drawn before keeping the best. */
  ITERATIONS: 500,
  /** Below this |determinant| of the normal equations the points are degenerate (collinear). */
  MIN_PIVOT: 1e-10,
};

/**
 * A view (plane → picture A) as seen in picture B of the same camera, where A is B scaled and
 * moved: p_A = p_B × scale + (padX, padY). A letterboxed working picture back to the source, a
 * picture decoded at twice the size, or the camera turned so that the picture's content moved by
 * d (scale 1, pad −d).
 */
export function viewInPicture(h: H3, scale: number, padX: number, padY: number): H3 {
  return [
    (h[0] - padX * h[6]) / scale, (h[1] - padX * h[7]) / scale, (h[2] - padX * h[8]) / scale,
    (h[3] - padY * h[6]) / scale, (h[4] - padY * h[7]) / scale, (h[5] - padY * h[8]) / scale,
    h[6], h[7], h[8],
  ];
}

export function applyHomography(h: H3, p: Pt): Pt {
  const w = h[6] * p[0] + h[7] * p[1] + h[8];
  return [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w];
}

export function invertHomography(h: H3): H3 | null {
  const [a, b, c, d, e, f, g, i, k] = h;
  const A = e * k - f * i, B = -(d * k - f * g), C = d * i - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-15) return null;
  const inv = [A, -(b * k - c * i), b * f - c * e, B, a * k - c * g, -(a * f - c * d), C, -(a * i - b * g), a * e - b * d].map((x) => x / det);
  return inv.map((x) => x / inv[8]);
}

/** The homography that applies b, then a. */
export function composeHomographies(a: H3, b: H3): H3 {
  const r: number[] = [];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r.push(a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j]);
  return r;
}

/** The similarity that moves the points' centroid to 0 and their mean distance from it to √2. */
function normaliser(pts: Pt[]): H3 {
  const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length, cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const mean = pts.reduce((s, p) => s + Math.hypot(p[0] - cx, p[1] - cy), 0) / pts.length;
  const s = mean > 0 ? Math.SQRT2 / mean : 1;
  return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1];
}

/**
 * Least-squares homography taking src[i] to dst[i] (n ≥ 4), or null when the points are
 * degenerate (three of four collinear, all on one line). With h33 fixed to 1 in normalised
 * coordinates, the normal equations are 8×8; h33 = 0 would need the centroid of src to map to
 * infinity, which no view of a court in front of the camera does.
 */
export function fitHomography(src: Pt[], dst: Pt[]): H3 | null {
  if (src.length !== dst.length || src.length < 4) return null;
  const Ts = normaliser(src), Td = normaliser(dst);
  const ns = src.map((p) => applyHomography(Ts, p)), nd = dst.map((p) => applyHomography(Td, p));
  const AtA = Array.from({ length: 8 }, () => new Array<number>(9).fill(0));
  const addRow = (row: number[], rhs: number) => {
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) AtA[i][j] += row[i] * row[j];
      AtA[i][8] += row[i] * rhs;
    }
  };
  for (let k = 0; k < ns.length; k++) {
    const [x, y] = ns[k], [u, v] = nd[k];
    addRow([x, y, 1, 0, 0, 0, -u * x, -u * y], u);
    addRow([0, 0, 0, x, y, 1, -v * x, -v * y], v);
  }
  const h = solveLinear(AtA);
  if (!h) return null;
  const hn = [...h, 1];
  const TdInv = invertHomography(Td);
  if (!TdInv) return null;
  const out = composeHomographies(TdInv, composeHomographies(hn, Ts));
  if (!out.every(Number.isFinite) || Math.abs(out[8]) < 1e-15) return null;
  return out.map((x) => x / out[8]);
}

/** Gaussian elimination with partial pivoting on an n×(n+1) augmented matrix (modified in place). */
function solveLinear(M: number[][]): number[] | null {
  const n = M.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    if (Math.abs(M[p][c]) < HOMOGRAPHY_DEFAULTS.MIN_PIVOT) return null;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/** Distance in destination units between h(src) and dst. */
export function reprojectionError(h: H3, src: Pt, dst: Pt): number {
  const q = applyHomography(h, src);
  return Math.hypot(q[0] - dst[0], q[1] - dst[1]);
}

/**
 * The focal length (pixels) of a pinhole camera with square pixels and its principal point at
 * (cx, cy) that sees a plane through h (plane metres → image pixels), or null when no such camera
 * does. Such a camera's h is K·[r1 r2 t] up to scale, so K⁻¹ times h's first two columns are two
 * orthogonal vectors of one length; each condition is linear in 1/f², and 1/f² is solved from both
 * by least squares (either alone is ill-conditioned in some views: the orthogonality one when the
 * camera looks straight along one axis of the plane). Some views no camera has (the plane's axes
 * drawn sheared, a court folded onto one stripe) give 1/f² ≤ 0; others are met by another focal
 * length (the plane stretched along one axis), so this is a necessary condition only.
 */
export function planeViewFocalPx(h: H3, cx: number, cy: number): number | null {
  // K⁻¹·column, times f: (x − cx·w, y − cy·w, f·w); the conditions below divide f back out.
  const col = (i: number) => [h[i] - cx * h[6 + i], h[3 + i] - cy * h[6 + i], h[6 + i]];
  const [u, v] = [col(0), col(1)];
  // Orthogonal: s·(uₓvₓ + u_yv_y) + u_wv_w = 0; equal length: s·(|u_xy|² − |v_xy|²) + u_w² − v_w² = 0, with s = 1/f².
  const a1 = u[0] * v[0] + u[1] * v[1], b1 = u[2] * v[2];
  const a2 = u[0] ** 2 + u[1] ** 2 - v[0] ** 2 - v[1] ** 2, b2 = u[2] ** 2 - v[2] ** 2;
  const denominator = a1 * a1 + a2 * a2;
  if (denominator === 0) return null;
  const s = -(a1 * b1 + a2 * b2) / denominator;
  return s > 0 ? 1 / Math.sqrt(s) : null;
}

/** A pinhole camera over a plane (planeCamera). */
export interface PlaneCamera {
  focalPx: number;
  /** The camera's height over the plane (plane units, metres for a court). */
  heightM: number;
  /** Where the camera sees a point `z` off the plane on the camera's side (null: behind it). */
  project(p: readonly [number, number, number]): Pt | null;
}

/**
 * The pinhole camera (square pixels, principal point at (cx, cy)) that sees a plane through h (plane
 * metres → image pixels), or null where no such camera does (planeViewFocalPx). K⁻¹·h is λ·[r1 r2 t]:
 * λ is taken from the two columns' mean length (they differ a little where a view is only near a
 * camera's), the sign puts the plane in front of the camera, and the plane's normal r1 × r2 is
 * turned towards the camera. A view alone fixes the camera only up to this model; a point off the
 * plane lands where such a camera would see it.
 */
export function planeCamera(h: H3, cx: number, cy: number): PlaneCamera | null {
  const f = planeViewFocalPx(h, cx, cy);
  if (f === null) return null;
  const column = (i: number) => [(h[i] - cx * h[6 + i]) / f, (h[3 + i] - cy * h[6 + i]) / f, h[6 + i]];
  const lambda = 2 / (Math.hypot(...column(0)) + Math.hypot(...column(1)));
  const sign = column(2)[2] >= 0 ? 1 : -1;
  const [r1, r2, t] = [0, 1, 2].map((i) => column(i).map((v) => v * lambda * sign));
  const normal = [r1[1] * r2[2] - r1[2] * r2[1], r1[2] * r2[0] - r1[0] * r2[2], r1[0] * r2[1] - r1[1] * r2[0]];
  // The camera's centre is −Rᵀt, so its height along the normal is −(normal · t).
  const along = -(normal[0] * t[0] + normal[1] * t[1] + normal[2] * t[2]);
  const up = normal.map((v) => (along < 0 ? -v : v));
  return {
    focalPx: f,
    heightM: Math.abs(along),
    project: ([x, y, z]) => {
      const q = [0, 1, 2].map((i) => x * r1[i] + y * r2[i] + z * up[i] + t[i]);
      return q[2] > 0 ? [cx + (f * q[0]) / q[2], cy + (f * q[1]) / q[2]] : null;
    },
  };
}

export interface RansacResult {
  h: H3;
  inliers: number[];
}


/**
 * RANSAC: fits four random correspondences many times, keeps the fit with the most inliers
 * (ties: the smaller summed error), then refits on all its inliers. Null with fewer than four
 * inliers.
 */
export function ransacHomography(
  src: Pt[],
  dst: Pt[],
  opts: { inlierDistance?: number; iterations?: number; seed?: number } = {},
): RansacResult | null {
  const inlierDistance = opts.inlierDistance ?? HOMOGRAPHY_DEFAULTS.INLIER_DISTANCE;
  const iterations = opts.iterations ?? HOMOGRAPHY_DEFAULTS.ITERATIONS;
  const random = seededRandom(opts.seed ?? 1);
  const n = src.length;
  if (n < 4 || dst.length !== n) return null;
  const inliersOf = (h: H3) => {
    const idx: number[] = [];
    let cost = 0;
    for (let i = 0; i < n; i++) {
      const e = reprojectionError(h, src[i], dst[i]);
      if (e <= inlierDistance) { idx.push(i); cost += e; }
    }
    return { idx, cost };
  };
  let best: { idx: number[]; cost: number } | null = null;
  for (let it = 0; it < iterations; it++) {
    const pick = new Set<number>();
    while (pick.size < 4) pick.add(Math.floor(random() * n));
    const sample = [...pick];
    const h = fitHomography(sample.map((i) => src[i]), sample.map((i) => dst[i]));
    if (!h) continue;
    const r = inliersOf(h);
    if (!best || r.idx.length > best.idx.length || (r.idx.length === best.idx.length && r.cost < best.cost)) best = r;
    if (n === 4) break;
  }
  if (!best || best.idx.length < 4) return null;
  const h = fitHomography(best.idx.map((i) => src[i]), best.idx.map((i) => dst[i]));
  if (!h) return null;
  return { h, inliers: inliersOf(h).idx };
}
