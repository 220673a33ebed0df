import { describe, expect, it } from "vitest";
import { ALL_CLASSES, decodeBasketball, DEFAULT_THRESHOLDS } from "../../gpu-runner/vision/basketball.ts";
import type { CenterNetOutput } from "../../gpu-runner/vision/centernet.ts";
import { ofClass } from "../../gpu-runner/vision/detections.ts";

// A 32×32 grid (a 128×128 input at stride 4) with hand-placed peaks.
function output(): CenterNetOutput {
  const gw = 32, gh = 32, n = gw * gh;
  const heatmap = new Float32Array(80 * n), wh = new Float32Array(4 * n);
  const rim = new Float32Array(n), rimSize = new Float32Array(2 * n), ball = new Float32Array(n), ballSize = new Float32Array(2 * n);
  const put = (plane: Float32Array, x: number, y: number, v: number) => {
    plane[y * gw + x] = v;
    // A smaller neighbour to the right: the sub-cell refinement moves the peak towards it.
    plane[y * gw + x + 1] = v * 0.5;
  };
  put(heatmap.subarray(0, n), 10, 20, 0.8); // person
  for (const [k, v] of [[0, 8], [1, 20], [2, 8], [3, 20]]) wh[k * n + 20 * gw + 10] = v; // 16×40 box
  put(heatmap.subarray(32 * n, 33 * n), 25, 5, 0.4); // COCO sports ball far from ours
  put(ball, 5, 5, 0.6);
  ballSize[5 * gw + 5] = Math.log(3);
  ballSize[n + 5 * gw + 5] = Math.log(3);
  put(rim, 16, 8, 0.3);
  rimSize[8 * gw + 16] = Math.log(10);
  rimSize[n + 8 * gw + 16] = Math.log(3);
  return { heatmap, wh, heads: { rim, rim_size: rimSize, ball, ball_size: ballSize }, gridW: gw, gridH: gh };
}

describe("decoding basketball objects from one CenterNet output", () => {
  const detections = decodeBasketball(output(), 4, DEFAULT_THRESHOLDS, ALL_CLASSES);
  const found = { persons: ofClass(detections, "person"), balls: ofClass(detections, "ball"), rims: ofClass(detections, "rim") };

  it("one frame's detections: people, then balls, then rims, each best first", () => {
    expect(detections.map((d) => d.className)).toEqual(["person", "ball", "ball", "rim"]);
  });

  it("decodes only the classes asked for", () => {
    expect(decodeBasketball(output(), 4, DEFAULT_THRESHOLDS, ["rim"]).map((d) => d.className)).toEqual(["rim"]);
  });

  it("people from COCO's person heatmap with its box", () => {
    expect(found.persons).toHaveLength(1);
    expect(found.persons[0]).toMatchObject({ cx: 40, cy: 80, w: 16, h: 40 });
  });

  it("the ball from our head (sized by the ball_size head) plus COCO's sports ball elsewhere", () => {
    expect(found.balls.map((b) => Math.round(b.score * 10) / 10)).toEqual([0.6, 0.4]);
    expect(found.balls[0].cx).toBeGreaterThan(20);
    expect(found.balls[0].cx).toBeLessThan(22);
    expect(found.balls[0].w).toBeCloseTo(12);
  });

  it("rim candidates ranked by the rim head, sized by rim_size", () => {
    expect(found.rims[0]).toMatchObject({ w: expect.closeTo(40, 3), h: expect.closeTo(12, 3), score: expect.closeTo(0.3, 3) });
    expect(found.rims[0].cy).toBeCloseTo(32);
  });
});
