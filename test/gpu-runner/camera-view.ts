import type { H3 } from "../../gpu-runner/vision/homography.ts";

/** A pinhole camera (focal f px, principal point (cx, cy), square pixels) at `eye` (metres, z up) looking at `at` on the floor: the floor's homography. */
export function camera(f: number, cx: number, cy: number, eye: [number, number, number], at: [number, number, number]): H3 {
  const sub = (a: number[], b: number[]) => a.map((v, i) => v - b[i]);
  const norm = (a: number[]) => a.map((v) => v / Math.hypot(...a));
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const forward = norm(sub(at, eye)), right = norm(cross(forward, [0, 0, 1])), down = cross(forward, right);
  const R = [right, down, forward];
  const t = R.map((row) => -(row[0] * eye[0] + row[1] * eye[1] + row[2] * eye[2]));
  // Columns of K·[r1 r2 t]: r1 and r2 are R's first two columns (the floor's x and y axes in the camera).
  const col = (c: number[]) => [f * c[0] + cx * c[2], f * c[1] + cy * c[2], c[2]];
  const [c1, c2, c3] = [col(R.map((r) => r[0])), col(R.map((r) => r[1])), col(t)];
  return [c1[0], c2[0], c3[0], c1[1], c2[1], c3[1], c1[2], c2[2], c3[2]];
}
