import { describe, expect, it } from "vitest";
import { clippedWhiteShare, cropResize, letterboxRect } from "../../gpu-runner/vision/image.ts";

function solid(w: number, h: number, f: (x: number, y: number) => [number, number, number]) {
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(f(x, y), (y * w + x) * 3);
  return { data, width: w, height: h };
}

describe("cropResize", () => {
  it("copies a same-size crop exactly", () => {
    const img = solid(8, 6, (x, y) => [x * 10, y * 20, 7]);
    const out = cropResize(img, { x: 2, y: 1, w: 4, h: 4 }, 4, 4);
    expect(Array.from(out.subarray(0, 3))).toEqual([20, 20, 7]);
    expect(Array.from(out.subarray((3 * 4 + 3) * 3, (3 * 4 + 3) * 3 + 3))).toEqual([50, 80, 7]);
  });

  it("averages what a downscale drops instead of aliasing a thin line away", () => {
    // A 1-pixel white column every 4 pixels: a 4× shrink must give a uniform quarter-grey, not
    // all white or all black depending on phase.
    const img = solid(64, 8, (x) => (x % 4 === 0 ? [255, 255, 255] : [0, 0, 0]));
    const out = cropResize(img, { x: 0, y: 0, w: 64, h: 8 }, 16, 2);
    for (let i = 3; i < 13; i++) expect(out[i * 3]).toBeGreaterThan(40), expect(out[i * 3]).toBeLessThan(90);
  });

  it("fills the part of a crop outside the frame with the padding grey", () => {
    const img = solid(10, 10, () => [200, 0, 0]);
    const out = cropResize(img, { x: -10, y: 0, w: 20, h: 10 }, 20, 10);
    expect(Array.from(out.subarray(0, 3))).toEqual([114, 114, 114]);
    expect(Array.from(out.subarray(19 * 3, 20 * 3))).toEqual([200, 0, 0]);
  });

  it("letterboxes a landscape frame into a square, centred", () => {
    const { rect, mapping } = letterboxRect(1280, 720, 512, 512);
    expect(rect.w).toBeCloseTo(1280);
    expect(rect.y).toBeCloseTo(-280);
    expect(mapping.scale).toBeCloseTo(2.5);
  });
});

describe("clippedWhiteShare", () => {
  it("counts the pixels inside the rect whose three channels all reach the level, clipping the rect to the image", () => {
    // 4×2: a blown-out pixel, a bright but not white one, a white one just under the level, then grey.
    const px = [[255, 255, 255], [255, 250, 200], [244, 250, 250], [128, 128, 128], [250, 246, 249], [0, 0, 0], [128, 128, 128], [128, 128, 128]];
    const img = { data: Uint8Array.from(px.flat()), width: 4, height: 2 };
    expect(clippedWhiteShare(img, { x: 0, y: 0, w: 4, h: 2 }, 245)).toBeCloseTo(2 / 8);
    expect(clippedWhiteShare(img, { x: 0, y: 0, w: 1, h: 1 }, 245)).toBe(1);
    // Beyond the frame only the pixels inside count; a rect wholly outside has none.
    expect(clippedWhiteShare(img, { x: -2, y: -2, w: 3, h: 3 }, 245)).toBe(1);
    expect(clippedWhiteShare(img, { x: 10, y: 10, w: 3, h: 3 }, 245)).toBe(0);
  });
});
