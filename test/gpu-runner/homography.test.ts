import { describe, expect, it } from "vitest";
import { applyHomography, fitHomography, invertHomography, ransacHomography, type H3, type Pt } from "../../gpu-runner/vision/homography.ts";
import { seededRandom } from "../../gpu-runner/vision/random.ts";

// A camera-like homography: court metres → pixels of a 960×540 frame seen obliquely.
const TRUE_H: H3 = [38, -22, 480, 6, 9, 300, 0.004, -0.028, 1];
const court: Pt[] = [[0, -7.5], [0, -6.6], [0, -2.45], [0, 2.45], [0, 6.6], [5.8, -2.45], [5.8, 2.45], [7.6, 0], [2.99, -6.6], [8.3, 0], [4, 4]];

describe("fitHomography", () => {
  it("recovers a known homography from exact correspondences, four and more", () => {
    // Four in general position (no three on one line), then all eleven.
    for (const src of [[court[0], court[3], court[5], court[7]], court]) {
      const g = fitHomography(src, src.map((p) => applyHomography(TRUE_H, p)))!;
      expect(g).not.toBeNull();
      for (const p of [[1, 1], [10, -5], [3, 7]] as Pt[]) {
        const a = applyHomography(g, p), b = applyHomography(TRUE_H, p);
        expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeLessThan(1e-6);
      }
    }
  });

  it("gives a least-squares fit under pixel noise, far better than the noise would suggest at unseen points", () => {
    const random = seededRandom(7);
    const dst = court.map((p) => applyHomography(TRUE_H, p)).map(([x, y]) => [x + (random() - 0.5) * 2, y + (random() - 0.5) * 2] as Pt);
    const g = fitHomography(court, dst)!;
    const inv = invertHomography(g)!;
    // Back into metres: the free-throw spot within 10 cm with ±1 px noise.
    const back = applyHomography(inv, applyHomography(TRUE_H, [5.8, 0]));
    expect(Math.hypot(back[0] - 5.8, back[1])).toBeLessThan(0.1);
  });

  it("refuses degenerate input: too few points, or all on one line", () => {
    expect(fitHomography(court.slice(0, 3), court.slice(0, 3))).toBeNull();
    const line: Pt[] = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]];
    expect(fitHomography(line, line.map((p) => applyHomography(TRUE_H, p)))).toBeNull();
  });

  it("the inverse maps back", () => {
    const inv = invertHomography(TRUE_H)!;
    const q = applyHomography(inv, applyHomography(TRUE_H, [3, -2]));
    expect(q[0]).toBeCloseTo(3, 9);
    expect(q[1]).toBeCloseTo(-2, 9);
  });
});

describe("ransacHomography", () => {
  it("finds the homography and names the outliers when some correspondences are wrong", () => {
    const dst = court.map((p) => applyHomography(TRUE_H, p));
    dst[2] = [dst[2][0] + 80, dst[2][1] - 40];
    dst[9] = [10, 10];
    const r = ransacHomography(court, dst, { inlierDistance: 2, seed: 3 })!;
    expect(r.inliers).not.toContain(2);
    expect(r.inliers).not.toContain(9);
    expect(r.inliers.length).toBe(court.length - 2);
    const a = applyHomography(r.h, [6, 1]), b = applyHomography(TRUE_H, [6, 1]);
    expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeLessThan(1e-6);
    // A plain least-squares fit over all points is pulled off by the two outliers.
    const ls = fitHomography(court, dst)!;
    const c = applyHomography(ls, [6, 1]);
    expect(Math.hypot(c[0] - b[0], c[1] - b[1])).toBeGreaterThan(2);
  });
});
