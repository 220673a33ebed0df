// RGB24 image resampling for model inputs: crops of a frame around the rim, letterboxed whole
// frames and training mosaics. Separable resampling with a triangle filter whose support grows
// with the shrink factor, so a 3× downscale averages the pixels it drops instead of aliasing a
// 10-pixel ball into a flicker.

export interface Rect {
  /** Left and top in source pixels; may extend beyond the frame (outside pixels are padding). */
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

interface AxisTaps {
  /** For output index i: taps start at start[i] (source index), with count[i] weights at offset[i]. */
  start: Int32Array;
  count: Int32Array;
  offset: Int32Array;
  weights: Float32Array;
}

/**
 * Resampling weights for one axis: output pixel i covers source interval
 * [origin + i·step, origin + (i+1)·step). Taps outside [0, srcLen) are dropped and their weight
 * goes to the padding value (`outsideWeight`), so a crop that runs off the frame fades to gray.
 */
function axisTaps(origin: number, step: number, dstLen: number, srcLen: number): AxisTaps & { outside: Float32Array } {
  const support = Math.max(1, step);
  const start = new Int32Array(dstLen), count = new Int32Array(dstLen), offset = new Int32Array(dstLen);
  const outside = new Float32Array(dstLen);
  const all: number[] = [];
  for (let i = 0; i < dstLen; i++) {
    const centre = origin + (i + 0.5) * step - 0.5;
    const lo = Math.floor(centre - support) + 1, hi = Math.ceil(centre + support) - 1;
    let sum = 0, out = 0;
    const ws: number[] = [];
    for (let s = lo; s <= hi; s++) {
      const w = Math.max(0, 1 - Math.abs(s - centre) / support);
      sum += w;
      if (s < 0 || s >= srcLen) out += w;
      else ws.push(w);
    }
    const first = Math.max(lo, 0);
    start[i] = first;
    offset[i] = all.length;
    count[i] = ws.length;
    for (const w of ws) all.push(sum > 0 ? w / sum : 0);
    outside[i] = sum > 0 ? out / sum : 1;
  }
  return { start, count, offset, weights: Float32Array.from(all), outside };
}

/**
 * Resamples `rect` of `src` into a dstW×dstH RGB24 buffer. Pixels of the rect outside the
 * frame take `pad` (114, the Ultralytics letterbox gray, by default).
 */
/** One growing scratch buffer for the horizontal pass (cropResize runs on every watched frame; allocating it each time cost more than the filtering). */
let scratchBuffer = new Float32Array(0);
function scratch(length: number): Float32Array {
  if (scratchBuffer.length < length) scratchBuffer = new Float32Array(length);
  return scratchBuffer;
}

export function cropResize(src: RgbImage, rect: Rect, dstW: number, dstH: number, pad = 114, out?: Uint8Array): Uint8Array {
  const { data, width: W, height: H } = src;
  const xs = axisTaps(rect.x, rect.w / dstW, dstW, W);
  const ys = axisTaps(rect.y, rect.h / dstH, dstH, H);
  // Rows the vertical taps touch, resampled horizontally once each.
  const rowLo = Math.max(0, Math.min(H - 1, ys.start.reduce((m, v) => Math.min(m, v), H)));
  let rowHi = 0;
  for (let i = 0; i < dstH; i++) if (ys.count[i] > 0) rowHi = Math.max(rowHi, ys.start[i] + ys.count[i] - 1);
  const rows = Math.max(0, rowHi - rowLo + 1);
  const rowLen = dstW * 3;
  const tmp = scratch(rows * rowLen + rowLen);
  for (let r = 0; r < rows; r++) {
    const srcRow = (rowLo + r) * W * 3;
    const dstRow = r * rowLen;
    for (let i = 0; i < dstW; i++) {
      let R = xs.outside[i] * pad, G = R, B = R;
      const o = xs.offset[i], c = xs.count[i];
      let p = srcRow + xs.start[i] * 3;
      for (let k = 0; k < c; k++, p += 3) {
        const w = xs.weights[o + k];
        R += data[p] * w;
        G += data[p + 1] * w;
        B += data[p + 2] * w;
      }
      tmp[dstRow + i * 3] = R;
      tmp[dstRow + i * 3 + 1] = G;
      tmp[dstRow + i * 3 + 2] = B;
    }
  }
  // Vertical pass row by row (sequential memory), accumulated in the scratch's last row.
  const acc = tmp.subarray(rows * rowLen, rows * rowLen + rowLen);
  const dst = out ?? new Uint8Array(dstW * dstH * 3);
  for (let j = 0; j < dstH; j++) {
    const o = ys.offset[j], c = ys.count[j];
    acc.fill(ys.outside[j] * pad);
    for (let k = 0; k < c; k++) {
      const w = ys.weights[o + k], base = (ys.start[j] - rowLo + k) * rowLen;
      for (let i = 0; i < rowLen; i++) acc[i] += tmp[base + i] * w;
    }
    const dstRow = j * rowLen;
    for (let i = 0; i < rowLen; i++) {
      const v = acc[i];
      dst[dstRow + i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  }
  return dst;
}

/** Where a square (or any) model input sits over the source frame: source = input·scale + offset. */
export interface InputMapping {
  scale: number;
  offsetX: number;
  offsetY: number;
}

/** The whole frame fitted into dstW×dstH keeping its aspect, centred on gray padding. */
export function letterboxRect(srcW: number, srcH: number, dstW: number, dstH: number): { rect: Rect; mapping: InputMapping } {
  const scale = Math.max(srcW / dstW, srcH / dstH);
  const rect = { x: (srcW - dstW * scale) / 2, y: (srcH - dstH * scale) / 2, w: dstW * scale, h: dstH * scale };
  return { rect, mapping: { scale, offsetX: rect.x, offsetY: rect.y } };
}

export function rectMapping(rect: Rect, dstW: number): InputMapping {
  return { scale: rect.w / dstW, offsetX: rect.x, offsetY: rect.y };
}

/**
 * Share of the pixels inside `rect` (clipped to the image) whose red, green and blue all reach
 * `level`: blown-out white, where a light source shines into the camera. 0 for an empty rect.
 */
export function clippedWhiteShare(src: RgbImage, rect: Rect, level: number): number {
  const x0 = Math.max(0, Math.floor(rect.x)), x1 = Math.min(src.width, Math.ceil(rect.x + rect.w));
  const y0 = Math.max(0, Math.floor(rect.y)), y1 = Math.min(src.height, Math.ceil(rect.y + rect.h));
  let clipped = 0, all = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * src.width + x) * 3;
      all++;
      if (src.data[i] >= level && src.data[i + 1] >= level && src.data[i + 2] >= level) clipped++;
    }
  return all ? clipped / all : 0;
}
