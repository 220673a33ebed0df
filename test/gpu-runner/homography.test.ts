import { describe, expect, it } from "vitest";
import { applyHomography, composeHomographies, fitHomography, invertHomography, planeCamera, planeViewFocalPx, ransacHomography, type H3, type Pt } from "../../gpu-runner/vision/homography.ts";
import { seededRandom } from "../../gpu-runner/vision/random.ts";
import { camera } from "./camera-view.ts";

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

describe("composeHomographies", () => {
  it("applies one homography, then the other; four corners through the unit square give their direct fit", () => {
    const b: H3 = [1.2, 0.1, 3, -0.2, 0.9, 1, 0.001, 0.002, 1];
    const ab = composeHomographies(TRUE_H, b);
    for (const p of [[1, 2], [-4, 6], [8, 0]] as Pt[]) {
      const a = applyHomography(ab, p), c = applyHomography(TRUE_H, applyHomography(b, p));
      expect(Math.hypot(a[0] - c[0], a[1] - c[1])).toBeLessThan(1e-9);
    }
    // How court registration fits its guesses: court corners → unit square, then square → picture.
    const corners = [court[0], court[3], court[6], court[5]], square: Pt[] = [[0, 0], [1, 0], [1, 1], [0, 1]];
    const picture = corners.map((p) => applyHomography(TRUE_H, p));
    const viaSquare = composeHomographies(fitHomography(square, picture)!, invertHomography(fitHomography(square, corners)!)!);
    for (const p of court) {
      const a = applyHomography(viaSquare, p), c = applyHomography(fitHomography(corners, picture)!, p);
      expect(Math.hypot(a[0] - c[0], a[1] - c[1])).toBeLessThan(1e-6);
    }
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

describe("planeViewFocalPx", () => {
  it("recovers a camera's focal length from its view of a plane, at any scale of h", () => {
    for (const [f, eye] of [
      [420, [-8, 3, 3]], // from the side, above the wing
      [900, [12, 0, 2.5]], // from straight behind the free-throw line, along the court's axis
      [250, [4, -9, 6]], // a high wide view
    ] as Array<[number, [number, number, number]]>) {
      const h = camera(f, 240, 135, eye, [1.6, 0, 0]);
      expect(planeViewFocalPx(h, 240, 135)).toBeCloseTo(f, 6);
      expect(planeViewFocalPx(h.map((v) => -3 * v), 240, 135)).toBeCloseTo(f, 6);
    }
  });

  it("planeCamera: the camera's height, and where it sees a point off the plane, at any scale of h", () => {
    for (const [f, eye] of [
      [420, [-8, 3, 3]],
      [900, [12, 0, 2.5]],
      [250, [4, -9, 6]],
    ] as Array<[number, [number, number, number]]>) {
      const at: [number, number, number] = [1.6, 0, 0];
      const h = camera(f, 240, 135, eye, at);
      // A ring 3.05 m over the basket, as the camera sees it: the floor's homography of a plane 3.05 m up, at its origin.
      const ring = applyHomography(camera(f, 240, 135, [eye[0] - 1.6, eye[1], eye[2] - 3.05], [at[0] - 1.6, at[1], at[2] - 3.05]), [0, 0]);
      for (const scaled of [h, h.map((v) => -3 * v)]) {
        const cam = planeCamera(scaled, 240, 135)!;
        expect(cam.focalPx).toBeCloseTo(f, 6);
        expect(cam.heightM).toBeCloseTo(eye[2], 6);
        const seen = cam.project([1.6, 0, 3.05])!;
        expect(seen[0]).toBeCloseTo(ring[0], 6);
        expect(seen[1]).toBeCloseTo(ring[1], 6);
      }
      // A floor point behind the camera is not seen.
      expect(planeCamera(h, 240, 135)!.project([eye[0] - 30 * (at[0] - eye[0]), eye[1] - 30 * (at[1] - eye[1]), 0])).toBeNull();
    }
    const sheared: H3 = [1, 2, 0, 0, 1, 0, 0, 0, 1];
    expect(planeCamera(sheared, 240, 135)).toBeNull();
  });

  it("some views of a plane no camera has; the test is a necessary condition only", () => {
    const h = camera(420, 240, 135, [-8, 3, 3], [1.6, 0, 0]);
    // The plane sheared before the view (y → y + 2x: its axes no longer square): no camera sees that.
    const sheared: H3 = [h[0], h[1] + 2 * h[0], h[2], h[3], h[4] + 2 * h[3], h[5], h[6], h[7] + 2 * h[6], h[8]];
    expect(planeViewFocalPx(sheared, 240, 135)).toBeNull();
    // Stretched twice along x instead, the view is one a camera with a shorter lens has: the two
    // conditions are met by another focal length, so a wrong court can still pass.
    const stretched: H3 = [2 * h[0], h[1], h[2], 2 * h[3], h[4], h[5], 2 * h[6], h[7], h[8]];
    expect(planeViewFocalPx(stretched, 240, 135)).toBeGreaterThan(0);
  });
});
