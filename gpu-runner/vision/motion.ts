// Image primitives for watching a region over time: how much it changed (per block, in a disc, in a
// box), and the whole-pixel shift that lines it up with its running background (camera shake). All
// work on S×S RGB crops (bytes, or floats for a running average) and are pure; pictureShift (last)
// lines up two whole W×H luma pictures (the court pass: did the camera move).

/**
 * The strongest local change between two aligned S×S RGB crops: the mean absolute difference of the
 * most changed block of `block`×`block` pixels. A ball is a few blocks wide, so it shows here even
 * when it is a sliver of the region's mean.
 */
export function peakBlockMotion(a: Uint8Array, b: ArrayLike<number>, S: number, block = 16): number {
  let peak = 0;
  for (let by = 0; by + block <= S; by += block)
    for (let bx = 0; bx + block <= S; bx += block) {
      let sum = 0;
      for (let y = by; y < by + block; y += 2)
        for (let x = bx; x < bx + block; x += 2) {
          const o = (y * S + x) * 3;
          sum += Math.abs(a[o] - b[o]) + Math.abs(a[o + 1] - b[o + 1]) + Math.abs(a[o + 2] - b[o + 2]);
        }
      peak = Math.max(peak, sum / ((block / 2) ** 2 * 3));
    }
  return peak;
}

/** Luma (0–255) of an S×S RGB image, into `out`. */
export function lumaOf(rgb: ArrayLike<number>, S: number, out: Float32Array): Float32Array {
  for (let i = 0, o = 0; i < S * S; i++, o += 3) out[i] = 0.299 * rgb[o] + 0.587 * rgb[o + 1] + 0.114 * rgb[o + 2];
  return out;
}

/** Mean |a(x + dx, y + dy) − b(x, y)| over a grid (every `step` pixels of an n×n image) that stays `margin` inside. */
function shiftedDifference(a: Float32Array, b: Float32Array, n: number, dx: number, dy: number, margin: number, step: number): number {
  let sum = 0, count = 0;
  for (let y = margin; y < n - margin; y += step)
    for (let x = margin; x < n - margin; x += step) {
      sum += Math.abs(a[(y + dy) * n + x + dx] - b[y * n + x]);
      count++;
    }
  return count ? sum / count : 0;
}

/**
 * The whole-pixel shift (dx, dy) that lines an image up with a reference, `image(x + dx, y + dy) ≈
 * reference(x, y)`, up to `maxShift` pixels each way: a coarse search on 4× smaller images, then a
 * refinement around the best coarse answer. Camera shake moves the whole region at once; without
 * this, a handheld close-up of a rim "moves" everywhere and the ball cannot stand out from it.
 */
export function registerShift(image: Float32Array, reference: Float32Array, S: number, maxShift: number, scratch?: { a: Float32Array; b: Float32Array }): { dx: number; dy: number } {
  const m = S / 4;
  const a = blockMeans4(image, S, S, scratch?.a ?? new Float32Array(m * m));
  const b = blockMeans4(reference, S, S, scratch?.b ?? new Float32Array(m * m));
  const R = Math.ceil(maxShift / 4);
  let best = { dx: 0, dy: 0, d: shiftedDifference(a, b, m, 0, 0, R, 2) };
  for (let dy = -R; dy <= R; dy++)
    for (let dx = -R; dx <= R; dx++) {
      const d = shiftedDifference(a, b, m, dx, dy, R, 2);
      if (d < best.d - 1e-6) best = { dx, dy, d };
    }
  const margin = 4 * R + 3;
  let fine = { dx: 0, dy: 0, d: shiftedDifference(image, reference, S, 0, 0, margin, 2) };
  for (let dy = 4 * best.dy - 3; dy <= 4 * best.dy + 3; dy++)
    for (let dx = 4 * best.dx - 3; dx <= 4 * best.dx + 3; dx++) {
      if (Math.abs(dx) > maxShift || Math.abs(dy) > maxShift) continue;
      const d = shiftedDifference(image, reference, S, dx, dy, margin, 2);
      if (d < fine.d - 1e-6) fine = { dx, dy, d };
    }
  return { dx: fine.dx, dy: fine.dy };
}

/** out(x, y) = image(x + dx, y + dy) for RGB S×S; outside the image, `fill`'s pixel (so it counts as unchanged). */
export function shiftImage(image: Uint8Array, S: number, dx: number, dy: number, fill: ArrayLike<number>, out: Uint8Array): Uint8Array {
  for (let y = 0; y < S; y++) {
    const sy = y + dy;
    for (let x = 0; x < S; x++) {
      const sx = x + dx, o = (y * S + x) * 3;
      if (sx >= 0 && sx < S && sy >= 0 && sy < S) {
        const i = (sy * S + sx) * 3;
        out[o] = image[i];
        out[o + 1] = image[i + 1];
        out[o + 2] = image[i + 2];
      } else {
        out[o] = fill[o];
        out[o + 1] = fill[o + 1];
        out[o + 2] = fill[o + 2];
      }
    }
  }
  return out;
}

/**
 * Moves an RGB S×S float image's content by (dx, dy) whole pixels in place: out(x, y) = image(x − dx, y − dy);
 * where that falls outside, the pixel keeps its old value (an edge the move uncovered is no change).
 * `scratch` is the image's size.
 */
export function moveImageInPlace(image: Float32Array, S: number, dx: number, dy: number, scratch: Float32Array): void {
  scratch.set(image);
  for (let y = 0; y < S; y++) {
    const sy = y - dy;
    if (sy < 0 || sy >= S) continue;
    for (let x = 0; x < S; x++) {
      const sx = x - dx;
      if (sx < 0 || sx >= S) continue;
      const o = (y * S + x) * 3, i = (sy * S + sx) * 3;
      image[o] = scratch[i];
      image[o + 1] = scratch[i + 1];
      image[o + 2] = scratch[i + 2];
    }
  }
}

/** Mean absolute RGB difference between two S×S crops inside a disc (input pixels). */
export function discMotion(a: Uint8Array, b: ArrayLike<number>, S: number, cx: number, cy: number, r: number): number {
  let sum = 0, n = 0;
  const r2 = r * r;
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(S - 1, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(S - 1, Math.ceil(cx + r)); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 > r2) continue;
      const o = (y * S + x) * 3;
      sum += Math.abs(a[o] - b[o]) + Math.abs(a[o + 1] - b[o + 1]) + Math.abs(a[o + 2] - b[o + 2]);
      n += 3;
    }
  return n ? sum / n : 0;
}

/** Mean absolute RGB difference inside a rectangle (input pixels). */
export function boxMotion(a: Uint8Array, b: ArrayLike<number>, S: number, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0, n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y <= Math.min(S - 1, Math.ceil(y1)); y++)
    for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(S - 1, Math.ceil(x1)); x++) {
      const o = (y * S + x) * 3;
      sum += Math.abs(a[o] - b[o]) + Math.abs(a[o + 1] - b[o + 1]) + Math.abs(a[o + 2] - b[o + 2]);
      n += 3;
    }
  return n ? sum / n : 0;
}

/** A W×H luma picture's mean over 4×4 blocks (⌊W/4⌋×⌊H/4⌋), into `out`. */
function blockMeans4(luma: ArrayLike<number>, W: number, H: number, out: Float32Array): Float32Array {
  const w = W >> 2, h = H >> 2;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) s += luma[(4 * y + j) * W + 4 * x + i];
      out[y * w + x] = s / 16;
    }
  return out;
}

export const PICTURE_SHIFT_DEFAULTS = {
  /** A 4×4 block counts as changed when its mean luma differs by more than this (0–255) once the pictures are lined up. */
  CHANGED_LUMA: 24,
};

/**
 * How a whole W×H luma picture moved against a reference of the same size: the shift (dx, dy) in
 * whole pixels that lines it up, `picture(x + dx, y + dy) ≈ reference(x, y)`, searched up to
 * `maxShiftShare` of the width and height each way on 4×4 block means, then refined pixel by pixel
 * around the best of them; and the share of the overlap still changed after it (players moving
 * over a fixed floor; most of it after a cut or a pan past the search range). A camera on a tripod
 * gives (0, 0) and a small share. `atLimit`: the shift found is at the edge of the search, where a
 * larger one would have been cut short.
 */
export function pictureShift(picture: ArrayLike<number>, reference: ArrayLike<number>, W: number, H: number, maxShiftShare = 0.15): { dx: number; dy: number; changedShare: number; atLimit: boolean } {
  const w = W >> 2, h = H >> 2;
  const a = blockMeans4(picture, W, H, new Float32Array(w * h)), b = blockMeans4(reference, W, H, new Float32Array(w * h));
  const rx = Math.ceil(maxShiftShare * w), ry = Math.ceil(maxShiftShare * h);
  // Ties keep the smaller shift (searched outward from 0); a shift sure to be worse than the best by
  // more than the tie margin is left early (the answer is the same, the search faster).
  let best = { dx: 0, dy: 0, d: shiftedMeanDifference(a, b, w, h, 0, 0, 1) };
  for (let dy = -ry; dy <= ry; dy++)
    for (let dx = -rx; dx <= rx; dx++) {
      const d = shiftedMeanDifference(a, b, w, h, dx, dy, 1, best.d + 2e-6);
      if (d < best.d - 1e-6 || (Math.abs(d - best.d) <= 1e-6 && Math.hypot(dx, dy) < Math.hypot(best.dx, best.dy))) best = { dx, dy, d };
    }
  let changed = 0, n = 0;
  for (let y = Math.max(0, -best.dy); y < Math.min(h, h - best.dy); y++)
    for (let x = Math.max(0, -best.dx); x < Math.min(w, w - best.dx); x++) {
      if (Math.abs(a[(y + best.dy) * w + x + best.dx] - b[y * w + x]) > PICTURE_SHIFT_DEFAULTS.CHANGED_LUMA) changed++;
      n++;
    }
  // A shift at the edge of the search may be a larger one cut short (a fast pan): not a measurement.
  const atLimit = Math.abs(best.dx) === rx || Math.abs(best.dy) === ry;
  // The blocks find the shift to about a block; the pixels within a block of it say where it is (a
  // camera followed picture by picture moves a few pixels a step, which whole blocks round away).
  // Every shift is compared on the reference's even pixels, so no shift is favoured by which pixels it samples.
  let fine = { dx: 4 * best.dx, dy: 4 * best.dy, d: shiftedMeanDifference(picture, reference, W, H, 4 * best.dx, 4 * best.dy, 2) };
  for (let dy = 4 * best.dy - 4; dy <= 4 * best.dy + 4; dy++)
    for (let dx = 4 * best.dx - 4; dx <= 4 * best.dx + 4; dx++) {
      const d = shiftedMeanDifference(picture, reference, W, H, dx, dy, 2, fine.d + 1e-6);
      if (d < fine.d - 1e-6) fine = { dx, dy, d };
    }
  return { dx: fine.dx, dy: fine.dy, changedShare: n ? changed / n : 1, atLimit };
}

/**
 * Mean |picture(x + dx, y + dy) − reference(x, y)| over the two `cols`×`rows` pictures' overlap, on
 * the reference's pixels whose row and column are multiples of `step`; Infinity where there is no
 * overlap, or as soon as the mean is sure to exceed `stopAbove` (a search skipping a shift it cannot take).
 */
function shiftedMeanDifference(picture: ArrayLike<number>, reference: ArrayLike<number>, cols: number, rows: number, dx: number, dy: number, step: number, stopAbove = Infinity): number {
  const x0 = Math.max(0, -dx), y0 = Math.max(0, -dy);
  const xs = x0 + ((step - (x0 % step)) % step), ys = y0 + ((step - (y0 % step)) % step);
  const x1 = Math.min(cols, cols - dx), y1 = Math.min(rows, rows - dy);
  if (xs >= x1 || ys >= y1) return Infinity;
  const count = Math.ceil((x1 - xs) / step) * Math.ceil((y1 - ys) / step), stopSum = stopAbove * count;
  let sum = 0;
  for (let y = ys; y < y1; y += step) {
    const p = (y + dy) * cols + dx, r = y * cols;
    for (let x = xs; x < x1; x += step) sum += Math.abs(picture[p + x] - reference[r + x]);
    if (sum > stopSum) return Infinity;
  }
  return sum / count;
}
