// The stability bench's changes to kept observations (bench/stability.ts): small, repeatable, and only where they say.
import { describe, expect, it } from "vitest";
import { perturbObservations } from "../../bench/stability.ts";
import type { RawRealObservations } from "../../gpu-runner/analysis/observe/real-footage.ts";

const box = (cx: number) => ({ cx, cy: 100, w: 40, h: 12 });
const raw = (): RawRealObservations => ({
  fps: 15, every: 3, width: 640, height: 360,
  scan: [],
  rims: [{ id: 0, coverage: 1, meanScore: 0.5, detections: 3, fixed: false, boxes: [box(300), box(302), box(304)], verification: 0.5 } as RawRealObservations["rims"][number]],
  candidates: [],
  watch: [0, 1, 2].map((f) => [{
    detections: [
      { className: "ball" as const, cx: 300, cy: 60 + f, w: 20, h: 20, score: 0.5, motion: 10 },
      { className: "ball" as const, cx: 320, cy: 60, w: 20, h: 20, score: 0.99, motion: 1 },
      { className: "rim" as const, cx: 300, cy: 100, w: 40, h: 12, score: 0.8 },
    ],
    roi: { x: 160, y: 0, w: 280, h: 280 }, netMotion: 1, roiMotion: 1, shift: { dx: 0, dy: 0 }, looked: true,
  }]) as unknown as RawRealObservations["watch"],
  tracks: [], jerseyReads: [], cuts: [], timings: { scanMs: 0, watchMs: 0 },
});

describe("perturbObservations", () => {
  it("moves each rim by one small draw over all its frames and changes only the watch's ball scores, within 0–1", () => {
    const before = raw();
    const after = perturbObservations(7, { RIM_SHIFT_RIM_WIDTHS: 0.05, BALL_SCORE_JITTER: 0.05 })(before);
    const moves = after.rims[0].boxes.map((b, i) => [b.cx - before.rims[0].boxes[i].cx, b.cy - before.rims[0].boxes[i].cy]);
    expect(new Set(moves.map((m) => m.map((x) => x.toFixed(9)).join()))).toHaveProperty("size", 1);
    expect(Math.hypot(...moves[0])).toBeGreaterThan(0);
    expect(Math.hypot(...moves[0])).toBeLessThan(40 * 0.05 * 6);
    const scores = (r: RawRealObservations, cls: string) => r.watch.flatMap((s) => s[0].detections.filter((d) => d.className === cls).map((d) => d.score));
    expect(scores(after, "ball")).not.toEqual(scores(before, "ball"));
    for (const s of scores(after, "ball")) expect(s).toBeGreaterThanOrEqual(0), expect(s).toBeLessThanOrEqual(1);
    expect(scores(after, "rim")).toEqual(scores(before, "rim"));
    expect(after.watch.map((s) => s[0].detections.map((d) => [d.cx, d.cy]))).toEqual(before.watch.map((s) => s[0].detections.map((d) => [d.cx, d.cy])));
    // The kept observations themselves are left as they were.
    expect(before).toEqual(raw());
  });

  it("repeats with the same seed, differs with another, and changes nothing at zero spread", () => {
    const a = perturbObservations(3)(raw()), b = perturbObservations(3)(raw()), c = perturbObservations(4)(raw());
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(perturbObservations(3, { RIM_SHIFT_RIM_WIDTHS: 0, BALL_SCORE_JITTER: 0 })(raw())).toEqual(raw());
  });
});
