// Finds the painted key (the "lane") by colour: its four corners, which geometry.ts
// (courtHomography) turns into a homography. The key is the one court marking that is a filled,
// high-contrast quadrilateral of known size, so it is found without a line detector when its colour
// is known (the synthetic games' paint; settings.keyColor).
import type { Point } from "../types.ts";

export interface KeyColorOptions {
  color: [number, number, number];
  tolerance: number;
}

/** The synthetic generator's paint colour; real courts need their own (analyzeGame settings.keyColor). */
export const DEFAULT_KEY_COLOR: KeyColorOptions = { color: [112, 34, 48], tolerance: 45 };

/** Convex quad (image pixels) around the largest key-coloured area, or null. */
export function findKeyQuad(rgb: Buffer, W: number, H: number, opts: KeyColorOptions = DEFAULT_KEY_COLOR, minFraction = 0.004): Point[] | null {
  const [r0, g0, b0] = opts.color;
  const t2 = opts.tolerance * opts.tolerance;
  const step = 2;
  const gw = Math.ceil(W / step), gh = Math.ceil(H / step);
  const mask = new Uint8Array(gw * gh);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      const o = (gy * step * W + gx * step) * 3;
      const dr = rgb[o] - r0, dg = rgb[o + 1] - g0, db = rgb[o + 2] - b0;
      if (dr * dr + dg * dg + db * db < t2) mask[gy * gw + gx] = 1;
    }
  // Largest 4-connected component: colour fringes elsewhere (a red rim blended with a dark
  // wall is close to a maroon key) must not stretch the hull.
  const label = new Int32Array(gw * gh);
  let bestLabel = 0, bestSize = 0, next = 0;
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || label[i]) continue;
    next++;
    let size = 0;
    stack.push(i);
    label[i] = next;
    while (stack.length) {
      const j = stack.pop()!;
      size++;
      const x = j % gw, y = (j - x) / gw;
      for (const k of [x > 0 ? j - 1 : -1, x < gw - 1 ? j + 1 : -1, y > 0 ? j - gw : -1, y < gh - 1 ? j + gw : -1])
        if (k >= 0 && mask[k] && !label[k]) { label[k] = next; stack.push(k); }
    }
    if (size > bestSize) { bestSize = size; bestLabel = next; }
  }
  if (bestSize * step * step < minFraction * W * H) return null;
  // Boundary samples: first/last pixel of the blob on every row and every column, at full
  // resolution near the grid hit, so near-horizontal edges are sampled as densely as vertical ones.
  const inKey = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return false;
    const o = (y * W + x) * 3;
    const dr = rgb[o] - r0, dg = rgb[o + 1] - g0, db = rgb[o + 2] - b0;
    return dr * dr + dg * dg + db * db < t2;
  };
  const pts: Point[] = [];
  for (let gy = 0; gy < gh; gy++) {
    let minX = -1, maxX = -1;
    for (let gx = 0; gx < gw; gx++) if (label[gy * gw + gx] === bestLabel) { if (minX < 0) minX = gx; maxX = gx; }
    if (minX < 0) continue;
    let x = minX * step;
    while (x > 0 && inKey(x - 1, gy * step)) x--;
    pts.push([x, gy * step + 0.5]);
    x = maxX * step;
    while (x < W - 1 && inKey(x + 1, gy * step)) x++;
    pts.push([x + 1, gy * step + 0.5]);
  }
  for (let gx = 0; gx < gw; gx++) {
    let minY = -1, maxY = -1;
    for (let gy = 0; gy < gh; gy++) if (label[gy * gw + gx] === bestLabel) { if (minY < 0) minY = gy; maxY = gy; }
    if (minY < 0) continue;
    let y = minY * step;
    while (y > 0 && inKey(gx * step, y - 1)) y--;
    pts.push([gx * step + 0.5, y]);
    y = maxY * step;
    while (y < H - 1 && inKey(gx * step, y + 1)) y++;
    pts.push([gx * step + 0.5, y + 1]);
  }
  const hull = convexHull(pts);
  if (hull.length < 4) return null;
  return refineQuad(reduceToQuad(hull), pts);
}

/**
 * The reduced hull's vertices sit on pixel corners; fitting a line to the boundary samples of each
 * edge (its middle 70%, away from corners that players may cover) and intersecting neighbouring
 * lines gives sub-pixel corners.
 */
export function refineQuad(quad: Point[], boundary: Point[]): Point[] {
  const lines: Array<{ p: Point; d: Point } | null> = quad.map((a, i) => {
    const b = quad[(i + 1) % 4];
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len < 4) return null;
    const ux = dx / len, uy = dy / len;
    const near = boundary.filter((p) => {
      const t = ((p[0] - a[0]) * ux + (p[1] - a[1]) * uy) / len;
      const dist = Math.abs((p[0] - a[0]) * uy - (p[1] - a[1]) * ux);
      return t > 0.15 && t < 0.85 && dist < 2.5;
    });
    if (near.length < 4) return null;
    const mx = near.reduce((s, p) => s + p[0], 0) / near.length, my = near.reduce((s, p) => s + p[1], 0) / near.length;
    let sxx = 0, sxy = 0, syy = 0;
    for (const p of near) { sxx += (p[0] - mx) ** 2; sxy += (p[0] - mx) * (p[1] - my); syy += (p[1] - my) ** 2; }
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    return { p: [mx, my], d: [Math.cos(angle), Math.sin(angle)] };
  });
  return quad.map((corner, i) => {
    const l1 = lines[(i + 3) % 4], l2 = lines[i];
    if (!l1 || !l2) return corner;
    const det = l1.d[0] * -l2.d[1] - l1.d[1] * -l2.d[0];
    if (Math.abs(det) < 1e-6) return corner;
    const rx = l2.p[0] - l1.p[0], ry = l2.p[1] - l1.p[1];
    const t = (rx * -l2.d[1] - ry * -l2.d[0]) / det;
    const q: Point = [l1.p[0] + t * l1.d[0], l1.p[1] + t * l1.d[1]];
    // Keep the refinement local; a wild intersection means a bad line fit. Acute corners seen
    // from a low angle are thin slivers the hull cuts off, so allow a fraction of the edge length.
    const prev = quad[(i + 3) % 4], next = quad[(i + 1) % 4];
    const limit = Math.max(6, 0.2 * Math.min(Math.hypot(corner[0] - prev[0], corner[1] - prev[1]), Math.hypot(corner[0] - next[0], corner[1] - next[1])));
    return Math.hypot(q[0] - corner[0], q[1] - corner[1]) < limit ? q : corner;
  });
}

export function convexHull(points: Point[]): Point[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [], upper: Point[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** Repeatedly drops the hull vertex whose removal loses the least area (Visvalingam) until four remain. */
export function reduceToQuad(hull: Point[]): Point[] {
  const pts = [...hull];
  const tri = (a: Point, b: Point, c: Point) => Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
  while (pts.length > 4) {
    let best = 0, bestArea = Infinity;
    for (let i = 0; i < pts.length; i++) {
      const a = tri(pts[(i - 1 + pts.length) % pts.length], pts[i], pts[(i + 1) % pts.length]);
      if (a < bestArea) { bestArea = a; best = i; }
    }
    pts.splice(best, 1);
  }
  return pts;
}