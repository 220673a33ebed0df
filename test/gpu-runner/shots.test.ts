import { describe, expect, it } from "vitest";
import { detectShots, flightStart } from "../../gpu-runner/analysis/shots.ts";
import { dominantOwner, mergeSamePlayer, possessionSegments } from "../../gpu-runner/analysis/possession.ts";
import { buildBallTrack, buildHoopTracks, fillGaps, type BallObs, type HoopTrack } from "../../gpu-runner/analysis/tracks.ts";
import type { Detection } from "../../gpu-runner/vision/detector.ts";

const fps = 30;
const rim = { cx: 400, cy: 100, w: 20, h: 6 };
const hoop: HoopTrack = { id: 0, coverage: 1, detections: 300, boxes: Array.from({ length: 300 }, () => ({ ...rim })) };
const ball = (cx: number, cy: number): BallObs => ({ cx, cy, w: 8, h: 8, score: 0.9 });

/** A parabola from (x0, y0) to the aim point, then either straight down (made) or bouncing away (miss). */
function shotPath(made: boolean, missDx = 40): Array<BallObs | null> {
  const out: Array<BallObs | null> = [];
  for (let f = 0; f < 30; f++) out.push(ball(200, 250)); // held
  const x0 = 200, y0 = 220, x1 = 400, y1 = 97;
  for (let f = 0; f <= 30; f++) {
    const s = f / 30;
    out.push(ball(x0 + (x1 - x0) * s, y0 + (y1 - y0) * s - 140 * 4 * s * (1 - s)));
  }
  for (let f = 1; f <= 30; f++) out.push(made ? ball(400, 97 + f * 8) : ball(400 + missDx * (f / 10), 97 + f * 5));
  for (let f = 0; f < 60; f++) out.push(null);
  return out;
}

describe("shot detection", () => {
  it("finds a made shot", () => {
    const shots = detectShots(shotPath(true), [hoop], { fps });
    expect(shots).toHaveLength(1);
    expect(shots[0].made).toBe(true);
    expect(shots[0].rimFrame).toBeGreaterThan(40);
  });

  it("finds a miss that rims out sideways", () => {
    const shots = detectShots(shotPath(false), [hoop], { fps });
    expect(shots).toHaveLength(1);
    expect(shots[0].made).toBe(false);
  });

  it("ignores a ball held near the rim that never arrived from away", () => {
    const held = Array.from({ length: 120 }, () => ball(405, 90));
    expect(detectShots(held, [hoop], { fps })).toHaveLength(0);
  });

  it("builds a continuous ball path and keeps the hoop that persists", () => {
    const det = (kind: Detection["kind"], cx: number, cy: number, score = 0.9): Detection => ({ kind, cx, cy, w: 10, h: 10, score });
    const frames: Detection[][] = Array.from({ length: 50 }, (_, f) => {
      const d: Detection[] = [det("hoop", 400, 100)];
      if (f % 5 !== 2) d.push(det("ball", 100 + f * 4, 200));
      if (f === 10) d.push(det("ball", 500, 300, 0.95), det("hoop", 50, 50)); // a distractor and a one-frame "hoop"
      return d;
    });
    const track = buildBallTrack(frames, { maxJump: 30 });
    expect(track.every((b) => b !== null)).toBe(true);
    expect(track[10]!.cx).toBe(140); // nearest to the prediction, not the most confident
    expect(track[12]!.interpolated).toBe(true);
    const hoops = buildHoopTracks(frames);
    expect(hoops).toHaveLength(1);
    expect(hoops[0].boxes[0].cx).toBe(400);
    expect(fillGaps([ball(0, 0), null, null, null, null, null, ball(10, 0)], 3)[3]).toBeNull();
  });
});

describe("release and possession", () => {
  it("dates the release from the start of the ball's rise", () => {
    const path = shotPath(true);
    const [ev] = detectShots(path, [hoop], { fps });
    // The held ball sits still for frames 0-29; the flight starts at frame 30 (the last frame in
    // hand or the first in the air are both the release to within one frame).
    const f = flightStart(path, ev.rimFrame, fps)!;
    expect(f).toBeGreaterThanOrEqual(29);
    expect(f).toBeLessThanOrEqual(30);
  });

  it("segments possession, merges a hidden dribble, and names the dominant holder", () => {
    const owners: Array<string | null> = [
      ...Array(10).fill("a"), ...Array(5).fill(null), ...Array(10).fill("b"), ...Array(20).fill(null), ...Array(8).fill("b"), ...Array(2).fill("c"), ...Array(6).fill("b"),
    ];
    const segs = possessionSegments(owners, { minFrames: 3, bridge: 2 });
    // The 2-frame "c" blip is too short to be a possession.
    expect(segs.map((s) => [s.track, s.start, s.end])).toEqual([["a", 0, 9], ["b", 15, 24], ["b", 45, 52], ["b", 55, 60]]);
    const merged = mergeSamePlayer(segs, 30, []);
    expect(merged.map((s) => [s.track, s.start, s.end])).toEqual([["a", 0, 9], ["b", 15, 60]]);
    // A shot in between keeps them apart.
    expect(mergeSamePlayer(segs, 30, [40]).length).toBe(3);
    expect(dominantOwner(owners, 40, 60)).toBe("b");
  });
});
