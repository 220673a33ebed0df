import { describe, expect, it } from "vitest";
import { buildBallPath, dropStatic } from "../../gpu-runner/analysis/rules/ball-path.ts";

const c = (cx: number, cy: number, score = 0.6, w = 20) => ({ className: "ball" as const, cx, cy, w, h: w, score });

describe("ball path on real-footage candidates", () => {
  it("drops a look-alike that fires in the same place frame after frame, unless something clearly better is there", () => {
    const frames = Array.from({ length: 30 }, (_, f) => [c(100, 100, 0.3), ...(f === 15 ? [c(101, 101, 0.7)] : [])]);
    const kept = dropStatic(frames, { fps: 15, scale: 20 });
    expect(kept[5]).toHaveLength(0);
    expect(kept[15].map((x) => x.score)).toEqual([0.7]);
  });

  it("follows a flight through clutter and ignores one-frame false hits", () => {
    const frames = Array.from({ length: 20 }, (_, f) => {
      const list = [c(50 + f * 20, 300 - f * 25 + f * f * 1.5)];
      if (f % 4 === 1) list.push(c(700 - f * 13, 40 + f * 31, 0.35)); // scattered false hits
      list.push(c(400, 500, 0.4)); // a ball resting on the floor
      return list;
    });
    const path = buildBallPath(frames, { fps: 15, scale: 20 });
    for (let f = 0; f < 20; f++) expect(path[f]?.cx).toBeCloseTo(50 + f * 20, 0);
  });

  it("starts a path only where a seed is allowed, and lets weaker sightings extend it", () => {
    const frames = Array.from({ length: 10 }, (_, f) => [c(100 + f * 15, 100 + f * 10, f < 3 ? 0.5 : 0.2)]);
    const path = buildBallPath(frames, { fps: 15, scale: 20, settings: { MIN_SCORE: 0.15, SEED_SCORE: 0.3 } });
    expect(path.filter(Boolean)).toHaveLength(10);
    const none = buildBallPath(frames, { fps: 15, scale: 20, settings: { MIN_SCORE: 0.15, SEED_SCORE: 0.3 }, visiblyMoving: () => false });
    expect(none.filter(Boolean)).toHaveLength(0);
  });

  it("fills short gaps, marking them interpolated", () => {
    const frames = Array.from({ length: 8 }, (_, f) => (f === 3 || f === 4 ? [] : [c(f * 10, 50)]));
    const path = buildBallPath(frames, { fps: 15, scale: 20, settings: { MAX_GAP_FRAMES: 2 } });
    expect(path[3]).toMatchObject({ cx: 30, interpolated: true });
  });

  it("keeps a few sightings of a ball moving steadily less than its own size (a close-up), not a look-alike jittering in place", () => {
    const steady = [[], [c(100, 100)], [c(100, 135)], [c(100, 175)], []];
    expect(buildBallPath(steady, { fps: 15, scale: 90 }).filter(Boolean)).toHaveLength(3);
    const jitter = [[], [c(100, 100)], [c(100, 135)], [c(100, 102)], [c(100, 138)], []];
    expect(buildBallPath(jitter, { fps: 15, scale: 90 }).filter(Boolean)).toHaveLength(0);
  });

  it("keeps a ball that hits the rim close up and turns back within its own size when every sighting stood out from the background; not a look-alike that does not", () => {
    // sujay_rim_miss_0065's ball, 82 px, at 15 frames a second: in from the top left, down onto the
    // ring, and back left off it: 0.87 of a ball from where it was first seen, not one straight way.
    const seen = [c(107, 10, 0.38, 46), c(134, 39, 0.97, 76), c(134, 76, 0.92, 75), c(95, 75, 0.8, 60)];
    const bounce = Array.from({ length: 27 }, (_, f) => (f >= 11 && f <= 14 ? [seen[f - 11]] : []));
    const moving = new Set(["107,10", "134,39", "134,76", "95,75"]);
    const standsOut = (b: { cx: number; cy: number }) => moving.has(`${b.cx},${b.cy}`);
    expect(buildBallPath(bounce, { fps: 15, scale: 82, visiblyMoving: standsOut }).filter(Boolean)).toHaveLength(4);
    // The same places where only the first sighting stood out (a look-alike flickering in place after it): none.
    const firstOnly = (b: { cx: number; cy: number }) => b.cx === 107;
    expect(buildBallPath(bounce, { fps: 15, scale: 82, visiblyMoving: firstOnly }).filter(Boolean)).toHaveLength(0);
    // Standing out without moving is not enough: a floodlight in a handheld clip's tiny region (its
    // small misalignments read as motion) fires three frames running where it is, moving a tenth of a pixel.
    const lamp = Array.from({ length: 27 }, (_, f) => (f >= 8 && f <= 10 ? [c(354.6 + f * 0.1, 127.2, 0.26, 2)] : []));
    expect(buildBallPath(lamp, { fps: 15, scale: 2.2, visiblyMoving: () => true }).filter(Boolean)).toHaveLength(0);
  });
});
