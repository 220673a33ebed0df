// Small synthetic pictures and a stand-in for the basketball model that finds what is drawn on them:
// the observation passes (scan, rim watch) tested on arrays held in memory, without a video or the
// real model.
import type { RgbImage } from "../../gpu-runner/vision/image.ts";
import type { BasketballModel } from "../../gpu-runner/vision/basketball.ts";
import type { Detection, DetectionClass } from "../../gpu-runner/vision/detections.ts";

export const ORANGE: [number, number, number] = [235, 110, 30];
export const BLUE: [number, number, number] = [30, 60, 220];

/** A smooth, non-repeating grey texture (like a crowd or foliage), so lining up a region has something to hold on to. */
export function texturedPicture(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = 128 + 30 * Math.sin(x / 7.3 + Math.cos(y / 11.1)) + 20 * Math.cos(y / 5.7 - x / 13.9);
      data.fill(Math.round(v), (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  return { data, width, height };
}

export function copyPicture(p: RgbImage): RgbImage {
  return { data: new Uint8Array(p.data), width: p.width, height: p.height };
}

export function drawDisc(p: RgbImage, cx: number, cy: number, r: number, color: [number, number, number]): RgbImage {
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(p.height - 1, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(p.width - 1, Math.ceil(cx + r)); x++)
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) p.data.set(color, (y * p.width + x) * 3);
  return p;
}

export function drawRect(p: RgbImage, x0: number, y0: number, w: number, h: number, color: [number, number, number]): RgbImage {
  for (let y = Math.max(0, y0); y < Math.min(p.height, y0 + h); y++) for (let x = Math.max(0, x0); x < Math.min(p.width, x0 + w); x++) p.data.set(color, (y * p.width + x) * 3);
  return p;
}

/** Which class a pixel's colour stands for (after resampling, colours blur at the edges: wide margins). */
function classOf(r: number, g: number, b: number): DetectionClass | null {
  if (r > 170 && g > 60 && g < 160 && b < 110) return "ball";
  if (b > 150 && r < 110) return "person";
  return null;
}

/**
 * Finds the orange discs (balls) and blue rectangles (people) in an RGB picture: each connected
 * blob of one colour is one box (its bounding box), scored `score`.
 */
export function findBlobs(rgb: Uint8Array, width: number, height: number, classes: readonly DetectionClass[] = ["person", "ball", "rim"], score = 0.6): Detection[] {
  const label = new Int32Array(width * height).fill(-1);
  const found: Detection[] = [];
  for (let start = 0; start < width * height; start++) {
    if (label[start] >= 0) continue;
    const cls = classOf(rgb[start * 3], rgb[start * 3 + 1], rgb[start * 3 + 2]);
    if (!cls) continue;
    let x0 = width, y0 = height, x1 = -1, y1 = -1;
    const stack = [start];
    label[start] = found.length;
    while (stack.length) {
      const i = stack.pop()!, x = i % width, y = (i - x) / width;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]) {
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const j = ny * width + nx;
        if (label[j] < 0 && classOf(rgb[j * 3], rgb[j * 3 + 1], rgb[j * 3 + 2]) === cls) {
          label[j] = found.length;
          stack.push(j);
        }
      }
    }
    found.push({ className: cls, cx: (x0 + x1 + 1) / 2, cy: (y0 + y1 + 1) / 2, w: x1 - x0 + 1, h: y1 - y0 + 1, score });
  }
  const order: DetectionClass[] = ["person", "ball", "rim"];
  return found.filter((d) => classes.includes(d.className)).sort((a, b) => order.indexOf(a.className) - order.indexOf(b.className));
}

/** The stand-in model: what `findBlobs` finds, plus what `extra` adds for the n-th call (0-based), answered after `delayMs(n)`. */
export function blobModel(opts: { extra?: (call: number) => Detection[]; delayMs?: (call: number) => number } = {}): BasketballModel & { calls: number } {
  const model = {
    calls: 0,
    async detect(rgb: Uint8Array, width: number, height: number, classes: readonly DetectionClass[] = ["person", "ball", "rim"]) {
      const call = model.calls++;
      // The model keeps no reference to the caller's buffer (the passes reuse theirs at once).
      const found = [...findBlobs(rgb, width, height, classes), ...(opts.extra?.(call) ?? []).filter((d) => classes.includes(d.className))];
      const delay = opts.delayMs?.(call) ?? 0;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      return found;
    },
  };
  return model;
}
