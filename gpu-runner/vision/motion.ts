// Image primitives for watching a region over time: how much it changed (per block, in a disc, in a
// box), and the whole-pixel shift that lines it up with its running background (camera shake). All
// work on S×S RGB crops (bytes, or floats for a running average) and are pure.

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

function downsample4(a: Float32Array, n: number, out: Float32Array): Float32Array {
  const m = n / 4;
  for (let y = 0; y < m; y++)
    for (let x = 0; x < m; x++) {
      let s = 0;
      for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) s += a[(4 * y + j) * n + 4 * x + i];
      out[y * m + x] = s / 16;
    }
  return out;
}

/**
 * The whole-pixel shift (dx, dy) that lines an image up with a reference, `image(x + dx, y + dy) ≈
 * reference(x, y)`, up to `maxShift` pixels each way: a coarse search on 4× smaller images, then a
 * refinement around the best coarse answer. Camera shake moves the whole region at once; without
 * this, a handheld close-up of a rim "moves" everywhere and the ball cannot stand out from it.
 */
export function registerShift(image: Float32Array, reference: Float32Array, S: number, maxShift: number, scratch?: { a: Float32Array; b: Float32Array }): { dx: number; dy: number } {
  const m = S / 4;
  const a = downsample4(image, S, scratch?.a ?? new Float32Array(m * m));
  const b = downsample4(reference, S, scratch?.b ?? new Float32Array(m * m));
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
