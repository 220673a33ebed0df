import { describe, expect, it } from "vitest";
import { estimateShotDistance, PLAYER_HEIGHT_M, RIM_BOX_WIDTH_M, shotDistanceRange } from "../../gpu-runner/analysis/rules/distance.ts";

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
      rim: { cx: rim.px, cy: 300, w: RIM_BOX_WIDTH_M * rim.scale, h: 10 },
      frameWidth: 1920,
      frameHeight: 1080,
    });
    expect(d).toBeCloseTo(5, 1);
  });

  it("tells a deep shot from a close one, and gives up without sizes", () => {
    const rim = at(0, 12);
    const est = (x: number, z: number) => {
      const s = at(x, z);
      return estimateShotDistance({ feet: [s.px, 900], playerHeight: PLAYER_HEIGHT_M * s.scale, rim: { cx: rim.px, cy: 300, w: RIM_BOX_WIDTH_M * rim.scale, h: 10 }, frameWidth: 1920, frameHeight: 1080 })!;
    };
    expect(est(1, 10)).toBeLessThan(6.75);
    expect(est(-7, 9)).toBeGreaterThan(6.75);
    expect(estimateShotDistance({ feet: [0, 0], playerHeight: 0, rim: { cx: 0, cy: 0, w: 10, h: 3 }, frameWidth: 100, frameHeight: 100 })).toBeNull();
  });

  it("gives the distances a picture allows over a range of lenses: narrow from the side, wide from behind", () => {
    // Filmed through a 100 mm-equivalent lens (35 mm equivalents are on the 43.27 mm diagonal).
    const tele = (Math.hypot(1920, 1080) * 100) / 43.27;
    const seen = (x: number, z: number) => ({ px: 960 + (x * tele) / z, scale: tele / z });
    const shot = (shooter: { px: number; scale: number }, rim: { px: number; scale: number }) => ({
      feet: [shooter.px, 900] as [number, number],
      playerHeight: PLAYER_HEIGHT_M * shooter.scale,
      rim: { cx: rim.px, cy: 300, w: RIM_BOX_WIDTH_M * rim.scale, h: 10 },
      frameWidth: 1920,
      frameHeight: 1080,
    });
    // From behind: the rim 4.2 m beyond the shooter, 20 m from the camera. The assumed 70° lens
    // makes it about a quarter of that; the range over 13–120 mm holds the truth.
    const behind = shot(seen(0, 15.8), seen(0, 20));
    expect(estimateShotDistance(behind)!).toBeLessThan(1.5);
    expect(estimateShotDistance(behind, 100)).toBeCloseTo(4.2, 5);
    const [shortest, longest] = shotDistanceRange(behind, 13, 120)!;
    expect(shortest).toBeLessThan(1);
    expect(longest).toBeGreaterThan(4.2);
    // From the side: 4.2 m across at the same depth, the same through every lens.
    const side = shot(seen(-2.1, 12), seen(2.1, 12));
    const [a, b] = shotDistanceRange(side, 13, 120)!;
    expect(a).toBeCloseTo(4.2, 5);
    expect(b).toBeCloseTo(4.2, 5);
    expect(shotDistanceRange({ ...side, playerHeight: 0 }, 13, 120)).toBeNull();
  });
});
