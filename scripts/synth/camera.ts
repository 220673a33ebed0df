/** Pinhole camera: world (x,y,z) metres → image pixels. Kept tiny so the generator and tests share it. */
export interface Camera {
  pos: [number, number, number];
  /** Rotation rows: right, down, forward (camera axes in world coordinates). */
  r: [number, number, number][];
  f: number;
  cx: number;
  cy: number;
}

export function lookAt(pos: [number, number, number], target: [number, number, number], f: number, cx: number, cy: number): Camera {
  const fwd = norm(sub(target, pos));
  const right = norm(cross(fwd, [0, 0, 1]));
  const down = cross(fwd, right);
  return { pos, r: [right, down, fwd], f, cx, cy };
}

export function project(cam: Camera, p: [number, number, number]): [number, number, number] {
  const d = sub(p, cam.pos);
  const xc = dot(cam.r[0], d);
  const yc = dot(cam.r[1], d);
  const zc = dot(cam.r[2], d);
  return [cam.cx + (cam.f * xc) / zc, cam.cy + (cam.f * yc) / zc, zc];
}

/** Intersects the ray through pixel (u,v) with the floor z=0; null above the horizon. */
export function floorPoint(cam: Camera, u: number, v: number): [number, number] | null {
  const xc = (u - cam.cx) / cam.f;
  const yc = (v - cam.cy) / cam.f;
  const dir: [number, number, number] = [0, 1, 2].map((i) => cam.r[0][i] * xc + cam.r[1][i] * yc + cam.r[2][i]) as [number, number, number];
  if (dir[2] >= -1e-6) return null;
  const t = -cam.pos[2] / dir[2];
  return [cam.pos[0] + t * dir[0], cam.pos[1] + t * dir[1]];
}

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): V3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};
