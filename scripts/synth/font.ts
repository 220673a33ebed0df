// Stroke digits on a unit box (x right, y down). Block shapes like printed jersey numbers,
// drawn thick so the OCR model sees something close to real jersey lettering.
const D: Record<string, number[][][]> = {
  "0": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]],
  "1": [[[0.55, 0], [0.55, 1]], [[0.2, 0.22], [0.55, 0]]],
  "2": [[[0, 0], [1, 0], [1, 0.5], [0, 0.5], [0, 1], [1, 1]]],
  "3": [[[0, 0], [1, 0], [1, 1], [0, 1]], [[0.15, 0.5], [1, 0.5]]],
  "4": [[[0, 0], [0, 0.55], [1, 0.55]], [[0.8, 0], [0.8, 1]]],
  "5": [[[1, 0], [0, 0], [0, 0.5], [1, 0.5], [1, 1], [0, 1]]],
  "6": [[[1, 0], [0, 0], [0, 1], [1, 1], [1, 0.5], [0, 0.5]]],
  "7": [[[0, 0], [1, 0], [0.35, 1]]],
  "8": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]], [[0, 0.5], [1, 0.5]]],
  "9": [[[1, 0.5], [0, 0.5], [0, 0], [1, 0], [1, 1], [0, 1]]],
};

/** Draws `text` centred at (cx, cy) with digit height h into an RGB buffer. */
export function drawNumber(buf: Buffer, W: number, H: number, text: string, cx: number, cy: number, h: number, color: [number, number, number]) {
  const dw = h * 0.55;
  const gap = h * 0.25;
  const total = text.length * dw + (text.length - 1) * gap;
  const thick = Math.max(1.2, h * 0.17);
  let x0 = cx - total / 2;
  for (const ch of text) {
    for (const line of D[ch] ?? []) {
      for (let k = 0; k + 1 < line.length; k++) {
        const ax = x0 + line[k][0] * dw, ay = cy - h / 2 + line[k][1] * h;
        const bx = x0 + line[k + 1][0] * dw, by = cy - h / 2 + line[k + 1][1] * h;
        strokeSegment(buf, W, H, ax, ay, bx, by, thick, color);
      }
    }
    x0 += dw + gap;
  }
}

function strokeSegment(buf: Buffer, W: number, H: number, ax: number, ay: number, bx: number, by: number, thick: number, c: [number, number, number]) {
  const r = thick / 2;
  const minX = Math.max(0, Math.floor(Math.min(ax, bx) - r - 1)), maxX = Math.min(W - 1, Math.ceil(Math.max(ax, bx) + r + 1));
  const minY = Math.max(0, Math.floor(Math.min(ay, by) - r - 1)), maxY = Math.min(H - 1, Math.ceil(Math.max(ay, by) + r + 1));
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy || 1;
  for (let y = minY; y <= maxY; y++)
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5, py = y + 0.5;
      const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
      const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
      // One pixel of anti-aliasing keeps small digits legible after downscaling.
      const a = Math.max(0, Math.min(1, r + 0.5 - d));
      if (a <= 0) continue;
      const o = (y * W + x) * 3;
      buf[o] = buf[o] + (c[0] - buf[o]) * a;
      buf[o + 1] = buf[o + 1] + (c[1] - buf[o + 1]) * a;
      buf[o + 2] = buf[o + 2] + (c[2] - buf[o + 2]) * a;
    }
}
