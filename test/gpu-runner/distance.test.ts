import { describe, expect, it } from "vitest";
import { estimateShotDistance, PLAYER_HEIGHT_M, RIM_WIDTH_M } from "../../gpu-runner/analysis/rules/distance.ts";

describe("court-free shot distance", () => {
  // A 1920-wide picture, 70° across: focal length ≈ 1371 px.
  const f = 1920 / (2 * Math.tan((35 * Math.PI) / 180));
  const at = (x: number, z: number) => ({ px: 960 + (x * f) / z, scale: f / z });

  it("recovers the distance between a player and the rim placed with a pinhole camera", () => {
    // Rim 10 m from the camera on the axis; shooter 6 m away and 3 m to the left: 5 m apart.
    const rim = at(0, 10), shooter = at(-3, 6);
    const d = estimateShotDistance({
      feet: [shooter.px, 900],
      playerHeight: PLAYER_HEIGHT_M * shooter.scale,
      rim: { cx: rim.px, cy: 300, w: RIM_WIDTH_M * rim.scale, h: 10 },
      frameWidth: 1920,
      frameHeight: 1080,
    });
    expect(d).toBeCloseTo(5, 1);
  });

  it("tells a deep shot from a close one, and gives up without sizes", () => {
    const rim = at(0, 12);
    const est = (x: number, z: number) => {
      const s = at(x, z);
      return estimateShotDistance({ feet: [s.px, 900], playerHeight: PLAYER_HEIGHT_M * s.scale, rim: { cx: rim.px, cy: 300, w: RIM_WIDTH_M * rim.scale, h: 10 }, frameWidth: 1920, frameHeight: 1080 })!;
    };
    expect(est(1, 10)).toBeLessThan(6.75);
    expect(est(-7, 9)).toBeGreaterThan(6.75);
    expect(estimateShotDistance({ feet: [0, 0], playerHeight: 0, rim: { cx: 0, cy: 0, w: 10, h: 3 }, frameWidth: 100, frameHeight: 100 })).toBeNull();
  });
});
