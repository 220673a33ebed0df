import { describe, expect, it } from "vitest";
import { ballCameToRim, isLight, plausibleHeight, ringSeenAtRim, RIM_PLAY_DEFAULTS, RIM_SEEN_DEFAULTS, trackRims, verifyRims, type RimSample } from "../../gpu-runner/analysis/rules/hoop.ts";
import type { BallObs } from "../../gpu-runner/analysis/rules/tracks.ts";
import type { Detection } from "../../gpu-runner/vision/detections.ts";

const rim = (cx: number, cy: number, w: number, score: number) => ({ className: "rim" as const, cx, cy, w, h: w * 0.3, score });

describe("rim tracking", () => {
  it("keeps a rim seen in most samples, drops a brief look-alike and merges the net's second peak", () => {
    const samples: RimSample[] = Array.from({ length: 40 }, (_, i) => ({
      frame: i * 3,
      candidates: [
        ...(i % 5 === 4 ? [] : [rim(600 + (i % 3) - 1, 180 + (i % 2), 44, 0.3 + (i % 4) * 0.1)]),
        // The net, a rim width below the ring, peaks now and then.
        ...(i % 3 === 0 ? [rim(601, 222, 40, 0.2)] : []),
        // A red shirt passing for a few samples.
        ...(i >= 10 && i < 14 ? [rim(200 + i * 20, 400, 40, 0.5)] : []),
      ],
    }));
    const tracks = trackRims(samples, { frames: 120 });
    expect(tracks).toHaveLength(1);
    expect(tracks[0].fixed).toBe(true);
    expect(tracks[0].boxes[0].cx).toBeCloseTo(600, -1);
    expect(tracks[0].boxes[119].cy).toBeCloseTo(180, -1);
    expect(tracks[0].coverage).toBeGreaterThan(0.7);
  });

  it("follows a rim across a pan and interpolates between samples", () => {
    const samples: RimSample[] = Array.from({ length: 30 }, (_, i) => ({ frame: i * 5, candidates: [rim(300 + i * 6, 200 - i, 40, 0.4)] }));
    const [t] = trackRims(samples, { frames: 150 });
    expect(t.fixed).toBe(false);
    expect(t.boxes[50].cx).toBeCloseTo(360, -1);
    expect(t.boxes[52].cx).toBeGreaterThan(t.boxes[50].cx);
  });

  it("finds nothing in a video without a persistent rim", () => {
    const samples: RimSample[] = Array.from({ length: 30 }, (_, i) => ({ frame: i, candidates: [rim((i * 137) % 900, (i * 71) % 500, 30, 0.3)] }));
    expect(trackRims(samples, { frames: 30 })).toHaveLength(0);
  });
});

describe("closer looks at rim candidates", () => {
  it("moves a whole-frame peak on the net onto the ring, and drops a candidate where nothing is found", async () => {
    const candidates = trackRims(
      Array.from({ length: 10 }, (_, i) => ({ frame: i, candidates: [rim(500, 240, 50, 0.4), rim(100, 100, 30, 0.3)] })),
      { frames: 10 },
    );
    // The closer look finds the ring at (505, 220) around the first, nothing around the second.
    const look = async (_frame: number, r: { x: number; y: number; w: number; h: number }) =>
      r.x < 505 && r.x + r.w > 505 && r.y < 220 && r.y + r.h > 220 ? rim(505, 220, 44, 0.5) : null;
    const verified = await verifyRims(candidates, [0, 5, 9], look, { frameW: 1280, frameH: 720 });
    expect(verified[0].verification).toBeCloseTo(0.5);
    expect(verified[0].boxes[3]).toMatchObject({ cx: 505, cy: 220, w: 44 });
    expect(verified.find((v) => v.boxes[0].cx < 200)!.verification).toBe(0);
  });

  it("rejects a 'rim' at the height of a player's chest", () => {
    const persons = [{ cx: 300, cy: 400, w: 60, h: 180 }, { cx: 500, cy: 410, w: 60, h: 170 }];
    expect(plausibleHeight({ cx: 320, cy: 380, w: 45, h: 12 }, persons)).toBe(false);
    expect(plausibleHeight({ cx: 320, cy: 120, w: 45, h: 12 }, persons)).toBe(true);
    // People far nearer or farther than the rim say nothing about its height.
    expect(plausibleHeight({ cx: 320, cy: 380, w: 10, h: 3 }, persons)).toBe(true);
  });

  it("rejects a 'rim' less than about 2 m above the people's feet even where it is several rim widths up (a court line's curve)", () => {
    const persons = [{ cx: 300, cy: 400, w: 60, h: 180 }, { cx: 500, cy: 410, w: 60, h: 170 }];
    // 3.6 rim widths but only 0.9 person heights above their feet.
    expect(plausibleHeight({ cx: 320, cy: 330, w: 45, h: 12 }, persons)).toBe(false);
    // 1.5 person heights up: a rim.
    expect(plausibleHeight({ cx: 320, cy: 225, w: 45, h: 12 }, persons)).toBe(true);
  });
});

describe("a rim is where the ball goes", () => {
  const fps = 15;
  const ring = { cx: 600, cy: 200, w: 50, h: 15 };
  const rimBoxes = Array.from({ length: 60 }, () => ring);
  /** A ball path: seen at `at(f)` on the frames given, nothing elsewhere. */
  const path = (frames: number[], at: (f: number) => { cx: number; cy: number }, interpolated = false): Array<BallObs | null> =>
    Array.from({ length: 60 }, (_, f) => (frames.includes(f) ? { ...at(f), w: 26, h: 26, score: 0.5, interpolated } : null));

  it("keeps a rim the ball came down onto", () => {
    // From 3 rim widths above to the ring over half a second.
    const shot = path([20, 21, 22, 23, 24, 25, 26, 27], (f) => ({ cx: 560 + 5 * (f - 20), cy: 50 + 20 * (f - 20) }));
    expect(ballCameToRim([shot], rimBoxes, fps)).toBe(true);
  });

  it("drops a 'rim' the ball was never near: a hoop drawn in an overlay's corner, a lamp, a sign", () => {
    // The ball in play across the picture, never within NEAR_RIM_WIDTHS of the candidate.
    const elsewhere = path(Array.from({ length: 40 }, (_, f) => f + 10), (f) => ({ cx: 200 + 5 * f, cy: 420 - 2 * f }));
    expect(ballCameToRim([elsewhere], rimBoxes, fps)).toBe(false);
    expect(ballCameToRim([Array(60).fill(null)], rimBoxes, fps)).toBe(false);
  });

  it("counts only sightings, for long enough: a gap filled in by interpolation or a single glimpse is not the ball at the rim", () => {
    const filledIn = path([30, 31, 32, 33], () => ({ cx: 610, cy: 210 }), true);
    expect(ballCameToRim([filledIn], rimBoxes, fps)).toBe(false);
    const glimpse = path([30], () => ({ cx: 610, cy: 210 }));
    expect(ballCameToRim([glimpse], rimBoxes, fps)).toBe(false);
    // The same glimpse is enough where the setting asks for less.
    expect(ballCameToRim([glimpse], rimBoxes, fps, { ...RIM_PLAY_DEFAULTS, MIN_NEAR_S: 0 })).toBe(true);
  });

  it("counts the ball wherever it was seen: on the rim's own watched path or on the whole video's (the scan)", () => {
    // The rim watch never started a path (nothing moved enough there); the scan saw the ball come down to the ring.
    const watched = path([], () => ({ cx: 0, cy: 0 }));
    const scene = path([24, 27], (f) => ({ cx: 600, cy: 140 + 20 * (f - 24) }));
    expect(ballCameToRim([watched], rimBoxes, fps)).toBe(false);
    expect(ballCameToRim([watched, scene], rimBoxes, fps)).toBe(true);
  });

  it("measures in the rim's own widths at each frame (a rim that moves with the camera)", () => {
    const moving = rimBoxes.map((b, f) => ({ ...b, cx: b.cx + 10 * f }));
    // NEAR_RIM_WIDTHS rim widths (75 px at 1.5): the ball sits 10 px inside that from where the rim is at frames 40–42.
    const inside = RIM_PLAY_DEFAULTS.NEAR_RIM_WIDTHS * ring.w - 10;
    const near = path([40, 41, 42], (f) => ({ cx: 600 + 10 * f + inside, cy: 200 }));
    expect(ballCameToRim([near], moving, fps)).toBe(true);
    expect(ballCameToRim([near], rimBoxes, fps)).toBe(false);
  });
});

describe("a lamp is not a rim", () => {
  it("drops a 'ring' whose box is largely blown out white, keeps one with a white board or net behind it", () => {
    // A gym's ceiling lamp measured 0.36, a real ring at most 0.05 on the tuning clips.
    expect(isLight({ clippedWhite: 0.36 })).toBe(true);
    expect(isLight({ clippedWhite: 0.05 })).toBe(false);
    expect(isLight({})).toBe(false);
  });
});

describe("a rim is a ring that stays where it hangs", () => {
  const ring = { cx: 600, cy: 200, w: 50, h: 15 };
  const still = Array(60).fill(ring);
  /** The rim watch's rim boxes per frame: `at(f)` where it looked, null where it did not. */
  const looks = (at: (f: number) => Detection[]) => Array.from({ length: 60 }, (_, f) => (f % 2 === 0 ? at(f) : null));

  it("keeps a ring the watch finds at its place in most looked frames, hidden now and then by the ball or a player", () => {
    expect(ringSeenAtRim(looks((f) => (f % 10 === 0 ? [] : [rim(603, 198, 48, 0.45)])), still)).toBe(true);
    // Frames the watch did not look at are not counted: found on every frame it looked at.
    expect(ringSeenAtRim(Array.from({ length: 60 }, (_, f) => (f === 30 ? [rim(600, 200, 50, 0.5)] : null)), still)).toBe(true);
  });

  it("drops a patch verified as a ring on a few stills but not a ring where it is watched (a ball's top, a court line's curve)", () => {
    // The rim head scores it, but low, every time it looks (a rendered animation's bouncing ball: at most 0.13).
    expect(ringSeenAtRim(looks(() => [rim(600, 205, 46, 0.13)]), still)).toBe(false);
    // A ring for a moment only: 3 of 30 looked frames.
    expect(ringSeenAtRim(looks((f) => (f % 20 === 0 ? [rim(600, 200, 50, 0.5)] : [])), still)).toBe(false);
    // Rings elsewhere in the region (a real rim a rim width and more away) are not this rim.
    expect(ringSeenAtRim(looks(() => [rim(600 + RIM_SEEN_DEFAULTS.AT_RIM_WIDTHS * ring.w + 5, 200, 50, 0.6)]), still)).toBe(false);
    // Balls are not rings, nor is a rim never looked at.
    expect(ringSeenAtRim(looks(() => [{ ...rim(600, 200, 50, 0.8), className: "ball" as const }]), still)).toBe(false);
    expect(ringSeenAtRim(Array(60).fill(null), still)).toBe(false);
  });

  it("measures at the rim's place at each frame (a rim that moves with the camera), with the settings it is given", () => {
    const moving = still.map((b, f) => ({ ...b, cx: b.cx + 10 * f }));
    const followed = looks((f) => [rim(600 + 10 * f, 200, 50, 0.4)]);
    expect(ringSeenAtRim(followed, moving)).toBe(true);
    expect(ringSeenAtRim(followed, still)).toBe(false);
    const sometimes = looks((f) => (f % 12 === 0 ? [rim(600, 200, 50, 0.5)] : []));
    expect(ringSeenAtRim(sometimes, still)).toBe(false);
    expect(ringSeenAtRim(sometimes, still, { ...RIM_SEEN_DEFAULTS, MIN_SEEN_SHARE: 0.1 })).toBe(true);
  });
});
