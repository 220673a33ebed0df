// Painted lines on a floor: thin bright ridges in the luma image, and the straight lines among
// them by a Hough transform. Court lines are white (or light) stripes a few pixels wide on a
// darker floor; a pixel is on a ridge when it is brighter than the floor at a small distance on
// both sides across the stripe, which a wide bright area (a wall, a window, sky) never is.

export const LINE_DEFAULTS = {
  /** Distance (px) to the floor on either side of a stripe: more than half the widest stripe expected at the working size. */
  SIDE_PX: 3,
  /** Luma (0–255) a ridge pixel must exceed the brighter of its two sides by. */
  MIN_CONTRAST: 18,
  /** The floor on either side must be flat: luma at one and two side distances may differ by at most this (a fence wire against leaves or a window frame is not on a flat floor). */
  MAX_SIDE_CHANGE: 12,
  /** Texture: a pixel is an edge where |∂x| + |∂y| (central differences) exceeds this, */
  EDGE_GRADIENT: 16,
  /** and a ridge pixel is dropped when edges fill more than this share of the window around it (a fence, leaves, a crowd: not a floor). */
  MAX_EDGE_SHARE: 0.2,
  /** Half-size (px) of that window. */
  TEXTURE_RADIUS: 7,
  /** Hough: angle bins over 180°. */
  THETA_BINS: 180,
  /** Hough: a peak must gather this many ridge pixels per 100 px of image width. */
  MIN_VOTES_PER_100PX: 9,
  /** Hough: at most this many lines are kept. */
  MAX_LINES: 12,
  /** Hough: a pixel within this distance (px) of a kept line no longer votes for the next ones. */
  CLAIM_PX: 2.5,
};

export interface Line {
  /** Unit normal angle (radians, 0 ≤ theta < π) and signed distance from the origin: x·cosθ + y·sinθ = rho. */
  theta: number;
  rho: number;
  votes: number;
}

/**
 * Ridge mask: 1 where a pixel is a thin bright stripe in one of four directions (across a
 * horizontal, vertical or either diagonal stripe). `luma` is W×H, one byte a pixel.
 */
export function ridgeMask(luma: Uint8Array, W: number, H: number, opts: { sidePx?: number; minContrast?: number; maxSideChange?: number } = {}): Uint8Array {
  const d = opts.sidePx ?? LINE_DEFAULTS.SIDE_PX;
  const t = opts.minContrast ?? LINE_DEFAULTS.MIN_CONTRAST;
  const flat = opts.maxSideChange ?? LINE_DEFAULTS.MAX_SIDE_CHANGE;
  const mask = new Uint8Array(W * H);
  const dirs: Array<[number, number]> = [[1, 0], [0, 1], [1, 1], [1, -1]];
  const e = 2 * d;
  for (let y = e; y < H - e; y++)
    for (let x = e; x < W - e; x++) {
      const v = luma[y * W + x];
      for (const [dx, dy] of dirs) {
        const a = luma[(y + dy * d) * W + x + dx * d], b = luma[(y - dy * d) * W + x - dx * d];
        if (v - Math.max(a, b) < t) continue;
        const a2 = luma[(y + dy * e) * W + x + dx * e], b2 = luma[(y - dy * e) * W + x - dx * e];
        if (Math.abs(a - a2) <= flat && Math.abs(b - b2) <= flat) { mask[y * W + x] = 1; break; }
      }
    }
  dropTextured(mask, luma, W, H);
  return mask;
}

/**
 * Clears ridge pixels that sit in textured surroundings (see MAX_EDGE_SHARE), using an integral
 * image of edge pixels. The edges of the stripes themselves (next to a ridge pixel)
 * do not count: two crossing court lines are not texture.
 */
function dropTextured(mask: Uint8Array, luma: Uint8Array, W: number, H: number): void {
  const g = LINE_DEFAULTS.EDGE_GRADIENT, r = LINE_DEFAULTS.TEXTURE_RADIUS;
  const nearRidge = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      if (mask[y * W + x])
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const X = x + dx, Y = y + dy;
            if (X >= 0 && Y >= 0 && X < W && Y < H) nearRidge[Y * W + X] = 1;
          }
  const integral = new Int32Array((W + 1) * (H + 1));
  for (let y = 0; y < H; y++) {
    let row = 0;
    for (let x = 0; x < W; x++) {
      let edge = 0;
      if (x > 0 && y > 0 && x < W - 1 && y < H - 1 && !nearRidge[y * W + x]) {
        const i = y * W + x;
        edge = Math.abs(luma[i + 1] - luma[i - 1]) + Math.abs(luma[i + W] - luma[i - W]) > g ? 1 : 0;
      }
      row += edge;
      integral[(y + 1) * (W + 1) + x + 1] = integral[y * (W + 1) + x + 1] + row;
    }
  }
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      if (!mask[y * W + x]) continue;
      const x0 = Math.max(0, x - r), y0 = Math.max(0, y - r), x1 = Math.min(W, x + r + 1), y1 = Math.min(H, y + r + 1);
      const edges = integral[y1 * (W + 1) + x1] - integral[y0 * (W + 1) + x1] - integral[y1 * (W + 1) + x0] + integral[y0 * (W + 1) + x0];
      if (edges > LINE_DEFAULTS.MAX_EDGE_SHARE * (x1 - x0) * (y1 - y0)) mask[y * W + x] = 0;
    }
}

/**
 * Straight lines through the ridge pixels, strongest first: a Hough transform, then the peak is
 * kept and the pixels near it stop voting, so one thick stripe gives one line and the next
 * strongest line is found among the pixels left.
 */
export function houghLines(mask: Uint8Array, W: number, H: number, opts: { maxLines?: number; minVotes?: number } = {}): Line[] {
  const maxLines = opts.maxLines ?? LINE_DEFAULTS.MAX_LINES;
  const minVotes = opts.minVotes ?? Math.round((LINE_DEFAULTS.MIN_VOTES_PER_100PX * W) / 100);
  const T = LINE_DEFAULTS.THETA_BINS;
  const cos = Float64Array.from({ length: T }, (_, i) => Math.cos((i * Math.PI) / T));
  const sin = Float64Array.from({ length: T }, (_, i) => Math.sin((i * Math.PI) / T));
  const R = Math.ceil(Math.hypot(W, H));
  const acc = new Int32Array(T * (2 * R + 1));
  const xs: number[] = [], ys: number[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (mask[y * W + x]) { xs.push(x); ys.push(y); }
  const alive = new Uint8Array(xs.length).fill(1);
  const vote = (i: number, delta: number) => {
    for (let k = 0; k < T; k++) acc[k * (2 * R + 1) + Math.round(xs[i] * cos[k] + ys[i] * sin[k]) + R] += delta;
  };
  for (let i = 0; i < xs.length; i++) vote(i, 1);
  const lines: Line[] = [];
  while (lines.length < maxLines) {
    let best = -1, bestVotes = 0;
    for (let j = 0; j < acc.length; j++) if (acc[j] > bestVotes) { bestVotes = acc[j]; best = j; }
    if (best < 0 || bestVotes < minVotes) break;
    const k = Math.floor(best / (2 * R + 1)), rho = (best % (2 * R + 1)) - R;
    const line = refineLine({ theta: (k * Math.PI) / T, rho, votes: bestVotes }, xs, ys);
    lines.push(line);
    const c = Math.cos(line.theta), s = Math.sin(line.theta);
    for (let i = 0; i < xs.length; i++)
      if (alive[i] && Math.abs(xs[i] * c + ys[i] * s - line.rho) <= LINE_DEFAULTS.CLAIM_PX) { alive[i] = 0; vote(i, -1); }
  }
  return lines;
}

/**
 * The Hough peak is only as exact as its bins (1°: two pixels across 120 px); the line through
 * the ridge pixels near it by total least squares (their principal axis) is exact to a fraction
 * of a pixel. Twice, so pixels the first fit brings within reach count in the second.
 */
export function refineLine(line: Line, xs: number[], ys: number[]): Line {
  let cur = line;
  for (let pass = 0; pass < 2; pass++) {
    const c = Math.cos(cur.theta), s = Math.sin(cur.theta);
    let n = 0, mx = 0, my = 0;
    const near: number[] = [];
    for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i] * c + ys[i] * s - cur.rho) <= LINE_DEFAULTS.CLAIM_PX) { near.push(i); mx += xs[i]; my += ys[i]; n++; }
    if (n < 3) return cur;
    mx /= n; my /= n;
    let sxx = 0, syy = 0, sxy = 0;
    for (const i of near) { const dx = xs[i] - mx, dy = ys[i] - my; sxx += dx * dx; syy += dy * dy; sxy += dx * dy; }
    // Normal = eigenvector of the smaller eigenvalue of the scatter matrix.
    const along = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    let theta = along + Math.PI / 2;
    let rho = mx * Math.cos(theta) + my * Math.sin(theta);
    if (theta >= Math.PI) { theta -= Math.PI; rho = -rho; }
    if (theta < 0) { theta += Math.PI; rho = -rho; }
    cur = { theta, rho, votes: line.votes };
  }
  return cur;
}

/** Where two lines cross, or null when they are (nearly) parallel. */
export function intersect(a: Line, b: Line): [number, number] | null {
  const ca = Math.cos(a.theta), sa = Math.sin(a.theta), cb = Math.cos(b.theta), sb = Math.sin(b.theta);
  const det = ca * sb - sa * cb;
  if (Math.abs(det) < Math.sin((3 * Math.PI) / 180)) return null;
  return [(a.rho * sb - b.rho * sa) / det, (ca * b.rho - cb * a.rho) / det];
}
