import { describe, expect, it } from "vitest";
import { findKeyQuad, reduceToQuad, convexHull } from "../../gpu-runner/analysis/whole-frame/court.ts";
import { applyH, courtHomography, homographyFrom4, invertH, isThreePointWorld, worldNormed, distanceToFtSpot, type Homography } from "../../gpu-runner/analysis/rules/geometry.ts";
import { project } from "../../scripts/synth/camera.ts";
import { BASELINE_X, COURT, HOOP_X } from "../../scripts/synth/court.ts";
import { makeRenderer, type CameraVariant } from "../../scripts/synth/render.ts";
import { simulateGame } from "../../scripts/synth/script.ts";
import type { Point } from "../../gpu-runner/analysis/types.ts";

describe("homography", () => {
  it("maps the four correspondences and inverts", () => {
    const src: Point[] = [[0, 0], [1, 0], [1, 1], [0, 1]];
    const dst: Point[] = [[10, 10], [50, 12], [55, 40], [8, 35]];
    const h = homographyFrom4(src, dst)!;
    src.forEach((p, i) => {
      const q = applyH(h, p);
      expect(q[0]).toBeCloseTo(dst[i][0], 6);
      expect(q[1]).toBeCloseTo(dst[i][1], 6);
    });
    const back = applyH(invertH(h as Homography), [55, 40]);
    expect(back[0]).toBeCloseTo(1, 6);
    expect(back[1]).toBeCloseTo(1, 6);
    expect(homographyFrom4([[0, 0], [0, 0], [1, 1], [1, 1]], dst)).toBeNull();
  });

  it("classifies 2 and 3 point positions and the free-throw spot", () => {
    expect(isThreePointWorld([1.575 + 6.9, 0])).toBe(true);
    expect(isThreePointWorld([1.575 + 6.5, 0])).toBe(false);
    expect(isThreePointWorld([0.5, 6.7])).toBe(true);
    expect(isThreePointWorld([0.5, 6.4])).toBe(false);
    expect(distanceToFtSpot([5.8, 0.2])).toBeCloseTo(0.2, 6);
    expect(worldNormed([0, -7.5])).toEqual([0, 0]);
    expect(worldNormed([14, 7.5])).toEqual([1, 1]);
  });

  it("reduces a hull to its four corners", () => {
    const pts: Point[] = [];
    for (let x = 0; x <= 100; x += 5) pts.push([x, 0], [x, 50 + x * 0.2]);
    const q = reduceToQuad(convexHull(pts));
    const sorted = q.map((p) => p.join(",")).sort();
    expect(sorted).toEqual(["0,0", "0,50", "100,0", "100,70"].sort());
  });
});

describe("court from the painted key", () => {
  for (const camera of ["wide", "side", "portrait"] as CameraVariant[]) {
    it(`maps floor points to court metres within 0.35 m (${camera})`, () => {
      const [W, H] = camera === "portrait" ? [216, 384] : [640, 360];
      const script = simulateGame({ seed: 2, seconds: 5, fps: 30, players: 2 });
      const r = makeRenderer(script, camera, W, H, [0, 1]);
      const frame = Buffer.alloc(W * H * 3);
      r.render(0, frame);
      const cam = r.cameraAt(0);
      const quad = findKeyQuad(frame, W, H);
      expect(quad).not.toBeNull();
      const [ru, rv] = project(cam, [HOOP_X, 0, COURT.rimHeight]);
      const c = courtHomography(quad!, [ru, rv])!;
      // Points on the floor in generator metres → analysis court frame (origin at baseline centre).
      for (const [gx, gy] of [[7.5, 0], [10, -4], [6, 5], [11.5, 1]] as Point[]) {
        const [u, v] = project(cam, [gx, gy, 0]);
        const w = applyH(c.imageToWorld, [u, v]);
        expect(Math.hypot(w[0] - (BASELINE_X - gx), w[1] - gy)).toBeLessThan(0.35);
      }
    });
  }

  it("finds no court where there is no painted key", () => {
    const frame = Buffer.alloc(64 * 48 * 3, 200);
    expect(findKeyQuad(frame, 64, 48)).toBeNull();
  });
});
