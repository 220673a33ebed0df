// Painted lines on a floor, and the straight lines among them by a Hough transform. A court line
// is paint a few pixels wide on a flatter floor, seen three ways:
// - a stripe brighter than the floor on both sides (white lines on wood or asphalt),
// - a stripe darker than both sides (dark lines edging a painted key on light wood),
// - a step between two flat areas of different colour (a painted key meeting the floor with no
//   line of its own): in chroma (Cb, Cr) as well as luma, since paint and wood of the same
//   brightness differ in hue.
// A wide bright or dark area (a wall, a window, sky) is no stripe, and a step needs flat colour on
// both sides. The contrast a stripe needs is measured from the floor's own noise around it (a grainy
// or compressed floor needs more, a smooth one less), never below a fixed least contrast.

export const LINE_DEFAULTS = {
  /** Distance (px) to the floor on either side of a stripe or step: more than half the widest stripe expected at the working size. */
  SIDE_PX: 3,
  /** Least luma contrast (grey levels, 0–255) of a stripe against the nearer of its two sides, whatever the noise. */
  MIN_CONTRAST: 18,
  /**
   * and at least this many times the picture's noise (σ in grey levels, measured per NOISE_BLOCK_PX
   * block from neighbouring pixels' differences); 0: the fixed MIN_CONTRAST alone. Off by default,
   * as are DARK_STRIPES and EDGE_MIN_COLOUR: on the tuning frames they raise every court type's
   * support, the wrong ones' too, and registered wrong courts (docs/analysis.md, "Dark stripes,
   * colour steps and fainter lines"); turn them on with bench:court -- --set.
   */
  NOISE_MULTIPLE: 0,
  /** Side (px) of the square blocks the noise is measured in. */
  NOISE_BLOCK_PX: 16,
  /** Stripes darker than the floor on both sides count too (dark lines edging a painted key). */
  DARK_STRIPES: false,
  /** Least colour difference (Cb/Cr levels, 0–255 scale; luma weighed by EDGE_LUMA_WEIGHT) between the flat areas either side of a colour step; 0 turns steps off. */
  EDGE_MIN_COLOUR: 0,
  /** Weight of luma in that colour difference: 0 counts hue only (a shadow's edge changes luma, not hue). */
  EDGE_LUMA_WEIGHT: 0,
  /** The floor on either side must be flat: luma (or colour, for a step) at one and two side distances may differ by at most this (a fence wire against leaves or a window frame is not on a flat floor). */
  MAX_SIDE_CHANGE: 12,
  /** Texture: a pixel is an edge where |∂x| + |∂y| (central differences) exceeds this, */
  EDGE_GRADIENT: 16,
  /** and a ridge pixel is dropped when edges fill more than this share of the window around it (a fence, leaves, a crowd: not a floor). */
  MAX_EDGE_SHARE: 0.2,
  /** Half-size (px) of that window. */
  TEXTURE_RADIUS: 7,
  /** Hough: angle bins over 180°. */
  THETA_BINS: 180,
  /**
   * Hough: a peak must gather this many ridge pixels per 100 px of image width (a free-throw line
   * seen from the side is short: about 50 px of a 480 px picture),
   */
  MIN_VOTES_PER_100PX: 7,
  /**
   * and at most this many lines are kept, strongest first. A fence or a banner behind the court
   * gives a dozen level lines that outvote the short court lines: with 12 lines of 9 votes,
   * chonyy_outdoor_handheld_1shot registered at 3 of the 15 frames around its labelled frame, with
   * 16 of 7 at 12. The guesses grow as the fourth power of the lines (docs/analysis.md, "The line
   * budget").
   */
  MAX_LINES: 16,
  /** Hough: a pixel within this distance (px) of a kept line no longer votes for the next ones. */
  CLAIM_PX: 2.5,
  /**
   * Hough: at most this many kept lines within DIRECTION_WINDOW_DEG (degrees) of one direction (0: no
   * limit). A fence, a wall's courses or a stand give many near-parallel lines, strong ones, that
   * fill the budget before the key's lane lines are reached, while a guess needs lines in two
   * directions: the baseline and the free-throw line across, lane lines along. Measured on the tuning
   * clips (docs/analysis.md, "Lines across directions"): at 3, chonyy_outdoor_handheld_1shot keeps
   * its three views and gains two, one at its release; chonyy_outdoor_5shots gains its first; at 4
   * the handheld clip loses one.
   */
  MAX_LINES_PER_DIRECTION: 3,
  DIRECTION_WINDOW_DEG: 5,
};

export interface Line {
  /** Unit normal angle (radians, 0 ≤ theta < π) and signed distance from the origin: x·cosθ + y·sinθ = rho. */
  theta: number;
  rho: number;
  votes: number;
}

export interface StripeOptions {
  sidePx?: number;
  /** Least contrast (grey levels); the noise may ask for more. */
  minContrast?: number;
  noiseMultiple?: number;
  maxSideChange?: number;
  darkStripes?: boolean;
}

/** Across a horizontal, vertical or either diagonal stripe. */
const DIRS: ReadonlyArray<readonly [number, number]> = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** BT.601 luma of an RGB picture (three bytes a pixel), as ffmpeg's gray conversion. */
export function lumaOfRgb(rgb: ArrayLike<number>, n: number): Uint8Array {
  const luma = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) luma[i] = (77 * rgb[j] + 150 * rgb[j + 1] + 29 * rgb[j + 2]) >> 8;
  return luma;
}

/**
 * Noise of one channel (σ, in its levels) per block of `block` × `block` pixels, from the median
 * absolute difference of horizontally and vertically neighbouring pixels (for white noise of σ
 * that median is 0.954 σ). A median, so the few pixels of a line crossing the block do not count.
 */
export function blockNoise(channel: ArrayLike<number>, W: number, H: number, block: number): { sigma: Float32Array; cols: number } {
  const cols = Math.ceil(W / block), rows = Math.ceil(H / block);
  const sigma = new Float32Array(cols * rows);
  const hist = new Int32Array(256);
  for (let by = 0; by < rows; by++)
    for (let bx = 0; bx < cols; bx++) {
      hist.fill(0);
      let n = 0;
      const x1 = Math.min(W - 1, (bx + 1) * block), y1 = Math.min(H - 1, (by + 1) * block);
      for (let y = by * block; y < y1; y++)
        for (let x = bx * block; x < x1; x++) {
          const i = y * W + x;
          hist[Math.min(255, Math.abs(channel[i + 1] - channel[i]))]++;
          hist[Math.min(255, Math.abs(channel[i + W] - channel[i]))]++;
          n += 2;
        }
      let seen = 0, k = 0;
      while (k < 255 && seen + hist[k] <= n / 2) seen += hist[k++];
      sigma[by * cols + bx] = k / 0.954;
    }
  return { sigma, cols };
}

/**
 * Stripe mask before the texture check: 1 where a pixel is a thin stripe, brighter (or, with
 * darkStripes, darker) than the floor SIDE_PX away on both sides by the local contrast threshold,
 * in one of four directions, with flat floor on both sides.
 */
function stripePixels(luma: Uint8Array, W: number, H: number, opts: StripeOptions): Uint8Array {
  const o = LINE_DEFAULTS;
  const d = opts.sidePx ?? o.SIDE_PX;
  const least = opts.minContrast ?? o.MIN_CONTRAST;
  const k = opts.noiseMultiple ?? o.NOISE_MULTIPLE;
  const flat = opts.maxSideChange ?? o.MAX_SIDE_CHANGE;
  const dark = opts.darkStripes ?? o.DARK_STRIPES;
  // The noise is measured only where it can raise the threshold.
  const { sigma, cols } = k > 0 ? blockNoise(luma, W, H, o.NOISE_BLOCK_PX) : { sigma: null, cols: 0 };
  const mask = new Uint8Array(W * H);
  const e = 2 * d;
  for (let y = e; y < H - e; y++) {
    const row = Math.floor(y / o.NOISE_BLOCK_PX) * cols;
    for (let x = e; x < W - e; x++) {
      const t = sigma ? Math.max(least, k * sigma[row + Math.floor(x / o.NOISE_BLOCK_PX)]) : least;
      const v = luma[y * W + x];
      for (const [dx, dy] of DIRS) {
        const a = luma[(y + dy * d) * W + x + dx * d], b = luma[(y - dy * d) * W + x - dx * d];
        if (v - Math.max(a, b) < t && !(dark && Math.min(a, b) - v >= t)) continue;
        const a2 = luma[(y + dy * e) * W + x + dx * e], b2 = luma[(y - dy * e) * W + x - dx * e];
        if (Math.abs(a - a2) <= flat && Math.abs(b - b2) <= flat) { mask[y * W + x] = 1; break; }
      }
    }
  }
  return mask;
}

/**
 * Ridge mask of a grey picture (W×H, one byte a pixel): thin stripes brighter or darker than the
 * floor on both sides (see stripePixels), not in textured surroundings.
 */
export function ridgeMask(luma: Uint8Array, W: number, H: number, opts: StripeOptions = {}): Uint8Array {
  const mask = stripePixels(luma, W, H, opts);
  dropTextured(mask, luma, W, H);
  return mask;
}

export interface ColourStepOptions {
  sidePx?: number;
  minColour?: number;
  lumaWeight?: number;
  maxSideChange?: number;
}

/**
 * Colour steps: 1 where the colour SIDE_PX away on one side differs from the other side's by at
 * least EDGE_MIN_COLOUR (and NOISE_MULTIPLE times the chroma noise there), both sides flat (the
 * colour at one and two side distances within MAX_SIDE_CHANGE), at the step's sharpest pixel
 * along the direction (so a step gives a line one pixel thin). Colour is (Cb, Cr) and luma weighed
 * by EDGE_LUMA_WEIGHT. `rgb` is W×H, three bytes a pixel.
 */
export function colourStepMask(rgb: ArrayLike<number>, W: number, H: number, opts: ColourStepOptions = {}): Uint8Array {
  const o = LINE_DEFAULTS;
  const d = opts.sidePx ?? o.SIDE_PX;
  const least = opts.minColour ?? o.EDGE_MIN_COLOUR;
  const wY = opts.lumaWeight ?? o.EDGE_LUMA_WEIGHT;
  const flat = opts.maxSideChange ?? o.MAX_SIDE_CHANGE;
  const mask = new Uint8Array(W * H);
  if (least <= 0) return mask;
  const n = W * H;
  const Y = new Float32Array(n), Cb = new Uint8Array(n), Cr = new Uint8Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = rgb[j], g = rgb[j + 1], b = rgb[j + 2];
    Y[i] = wY * ((77 * r + 150 * g + 29 * b) / 256);
    Cb[i] = Math.max(0, Math.min(255, 128 + ((-43 * r - 85 * g + 128 * b) >> 8)));
    Cr[i] = Math.max(0, Math.min(255, 128 + ((128 * r - 107 * g - 21 * b) >> 8)));
  }
  const nb = blockNoise(Cb, W, H, o.NOISE_BLOCK_PX), nr = blockNoise(Cr, W, H, o.NOISE_BLOCK_PX);
  const dist = (i: number, j: number) => Math.hypot(Y[i] - Y[j], Cb[i] - Cb[j], Cr[i] - Cr[j]);
  const e = 2 * d;
  for (let y = e; y < H - e; y++) {
    const row = Math.floor(y / o.NOISE_BLOCK_PX) * nb.cols;
    for (let x = e; x < W - e; x++) {
      const blk = row + Math.floor(x / o.NOISE_BLOCK_PX);
      const t = Math.max(least, o.NOISE_MULTIPLE * Math.max(nb.sigma[blk], nr.sigma[blk]));
      const i = y * W + x;
      for (const [dx, dy] of DIRS) {
        const s = dy * W + dx;
        const a = i + d * s, b = i - d * s;
        if (dist(a, b) < t || dist(a, i + e * s) > flat || dist(b, i - e * s) > flat) continue;
        // The sharpest pixel of the step along the direction: its central difference at least
        // the one before and more than the one after (one pixel of a step blurred over a few).
        const here = dist(i + s, i - s);
        if (here >= dist(i, i - 2 * s) && here > dist(i + 2 * s, i)) { mask[i] = 1; break; }
      }
    }
  }
  return mask;
}

/**
 * Where painted lines are in an RGB picture (W×H, three bytes a pixel): stripes of either
 * polarity in its luma and colour steps, not in textured surroundings. What registration fits
 * the court to.
 */
export function lineMask(rgb: ArrayLike<number>, W: number, H: number, opts: StripeOptions & ColourStepOptions = {}): Uint8Array {
  const luma = lumaOfRgb(rgb, W * H);
  const mask = stripePixels(luma, W, H, opts);
  const steps = colourStepMask(rgb, W, H, opts);
  for (let i = 0; i < mask.length; i++) mask[i] |= steps[i];
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
export function houghLines(mask: Uint8Array, W: number, H: number, opts: { maxLines?: number; minVotes?: number; perDirection?: number } = {}): Line[] {
  const maxLines = opts.maxLines ?? LINE_DEFAULTS.MAX_LINES;
  const perDirection = opts.perDirection ?? LINE_DEFAULTS.MAX_LINES_PER_DIRECTION;
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
  // Angle bins no further peak is taken from: perDirection kept lines already run within the window of them.
  const full = new Uint8Array(T);
  const windowBins = (LINE_DEFAULTS.DIRECTION_WINDOW_DEG * T) / 180;
  const binsApart = (a: number, b: number) => { const d = Math.abs(a - b) % T; return Math.min(d, T - d); };
  while (lines.length < maxLines) {
    let best = -1, bestVotes = 0;
    for (let j = 0; j < acc.length; j++) if (acc[j] > bestVotes && !full[Math.floor(j / (2 * R + 1))]) { bestVotes = acc[j]; best = j; }
    if (best < 0 || bestVotes < minVotes) break;
    const k = Math.floor(best / (2 * R + 1)), rho = (best % (2 * R + 1)) - R;
    const line = refineLine({ theta: (k * Math.PI) / T, rho, votes: bestVotes }, xs, ys);
    lines.push(line);
    if (perDirection > 0)
      for (let bin = 0; bin < T; bin++)
        if (!full[bin] && binsApart((line.theta * T) / Math.PI, bin) <= windowBins && lines.filter((l) => binsApart((l.theta * T) / Math.PI, bin) <= windowBins).length >= perDirection) full[bin] = 1;
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

/**
 * A picture at half the size (W and H even), each pixel the mean of a 2 × 2 block: the working
 * picture made from one decoded at twice its size, so that one decode serves both.
 */
export function halvePicture(rgb: ArrayLike<number>, W: number, H: number): Uint8Array {
  const w = W >> 1, h = H >> 1;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        const i = ((2 * y) * W + 2 * x) * 3 + c;
        out[(y * w + x) * 3 + c] = (rgb[i] + rgb[i + 3] + rgb[i + W * 3] + rgb[i + W * 3 + 3] + 2) >> 2;
      }
  return out;
}

/**
 * A mask at half the size (W and H even): 1 where any pixel of the 2 × 2 block is. Lines found at
 * twice the working size, on the working grid: a line one pixel wide there is one pixel wide here.
 */
export function poolMask(mask: Uint8Array, W: number, H: number): Uint8Array {
  const w = W >> 1, h = H >> 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = 2 * y * W + 2 * x;
      out[y * w + x] = mask[i] | mask[i + 1] | mask[i + W] | mask[i + W + 1];
    }
  return out;
}
