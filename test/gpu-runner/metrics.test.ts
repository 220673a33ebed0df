// The shot metrics every real-footage figure is computed with (gpu-runner/analysis/metrics.ts).
import { describe, expect, it } from "vitest";
import { clipBootstrapIntervals, clipShotCounts, exactlyRight, matchShots, sameShots, scoreShots } from "../../gpu-runner/analysis/metrics.ts";

const label = (release_s: number | null, result_s: number, made: boolean) => ({ release_s, result_s, made });
const found = (release: number, rim: number | null, made: boolean) => ({ release, rim, made });

describe("matchShots", () => {
  it("pairs by release within the window, nearest first, one to one", () => {
    const truth = [label(1.0, 2.0, true), label(2.0, 3.0, false)];
    // 1.9 is nearer to the second label than 1.2 is to the first: both still pair, each once.
    const m = matchShots(truth, [found(1.9, null, false), found(1.2, null, true), found(9, null, true)]);
    expect(m).toEqual(expect.arrayContaining([{ truth: 1, found: 0 }, { truth: 0, found: 1 }]));
    expect(m).toHaveLength(2);
  });

  it("uses the rim time when the label has no visible release, and never pairs beyond the window", () => {
    const truth = [label(null, 5.0, true)];
    expect(matchShots(truth, [found(3.0, 5.4, true)])).toEqual([{ truth: 0, found: 0 }]);
    expect(matchShots(truth, [found(5.0, null, true)])).toEqual([]);
    expect(matchShots([label(1, 2, true)], [found(2.6, null, true)])).toEqual([]);
    expect(matchShots([label(1, 2, true)], [found(2.6, null, true)], 2)).toHaveLength(1);
  });
});

describe("scores", () => {
  it("counts a clip exactly right only with every attempt found, nothing extra, every call right", () => {
    const truth = [label(1, 2, true), label(5, 6, false)];
    expect(exactlyRight(clipShotCounts(truth, [found(1.1, 2, true), found(5.2, 6, false)]))).toBe(true);
    expect(exactlyRight(clipShotCounts(truth, [found(1.1, 2, true), found(5.2, 6, true)]))).toBe(false);
    expect(exactlyRight(clipShotCounts(truth, [found(1.1, 2, true), found(5.2, 6, false), found(9, 9.5, false)]))).toBe(false);
    expect(exactlyRight(clipShotCounts([], []))).toBe(true);
    expect(exactlyRight(clipShotCounts([], [found(1, 2, false)]))).toBe(false);
  });

  it("pools precision, recall, F1 and made/missed over clips, and counts shots on clips without an attempt", () => {
    const a = clipShotCounts([label(1, 2, true), label(5, 6, false)], [found(1.1, 2, true), found(5.2, 6, true)]);
    const b = clipShotCounts([label(1, 2, true)], []);
    const c = clipShotCounts([], [found(3, 4, false)]);
    const s = scoreShots([a, b, c]);
    expect(s.matched).toBe(2);
    expect(s.precision).toBeCloseTo(2 / 3);
    expect(s.recall).toBeCloseTo(2 / 3);
    expect(s.f1).toBeCloseTo(2 / 3);
    expect(s.madeAccuracy).toBeCloseTo(1 / 2);
    expect(s.exactlyRight).toBe(0);
    expect(s.withinOne).toBe(3);
    expect(s).toMatchObject({ clipsWithoutAttempt: 1, attemptsOnClipsWithoutAttempt: 1 });
    expect(scoreShots([clipShotCounts([], [])]).f1).toBe(1);
    expect(scoreShots([b]).madeAccuracy).toBeNull();
  });
});

describe("sameShots", () => {
  const shots = [{ start: 2, made: true }, { start: 7.4, made: false }];
  it("agrees within the release tolerance, moved by an offset", () => {
    expect(sameShots(shots, [{ start: 2.15, made: true }, { start: 7.3, made: false }])).toBe(true);
    expect(sameShots(shots.map((s) => ({ ...s, start: s.start + 60 })), shots, 60)).toBe(true);
    expect(sameShots([], [])).toBe(true);
    // Exactly the tolerance apart, as two analysed frames' times are (2.6 − 2.4 = 0.2000000000000002).
    expect(sameShots([{ start: 2.6, made: true }], [{ start: 2.4, made: true }])).toBe(true);
  });
  it("disagrees on a release moved too far, another call, or another count", () => {
    expect(sameShots(shots, [{ start: 2.3, made: true }, { start: 7.4, made: false }])).toBe(false);
    expect(sameShots(shots, [{ start: 2, made: true }, { start: 7.4, made: true }])).toBe(false);
    expect(sameShots(shots, shots.slice(0, 1))).toBe(false);
    expect(sameShots(shots, shots, 0.5)).toBe(false);
  });
});

describe("release errors", () => {
  it("are measured on matched attempts whose label shows the release, and summarised as a median and a share within SAME_RELEASE_S", () => {
    const truth = [label(1, 2, true), label(5, 6, false), { release_s: null, result_s: 9, made: true }];
    const c = clipShotCounts(truth, [found(1.1, 2, true), found(5.6, 6, false), found(8, 9, true)]);
    expect(c.releaseErrorsS.map((e) => Number(e.toFixed(2)))).toEqual([0.1, 0.6]);
    const s = scoreShots([c, clipShotCounts([label(3, 4, true)], [found(3.15, 4, true)])]);
    expect(s.medianReleaseErrorS).toBeCloseTo(0.15);
    expect(s.releasesWithinSameS).toBeCloseTo(2 / 3);
    expect(scoreShots([clipShotCounts([], [])]).medianReleaseErrorS).toBeNull();
  });
});

describe("clipBootstrapIntervals", () => {
  const clip = (truthAttempts: number, attempts: number, matched: number, madeCorrect: number) => ({ truthAttempts, truthMakes: 0, attempts, makes: 0, matched, madeCorrect, releaseErrorsS: [] });
  const mixed = [clip(1, 1, 1, 1), clip(1, 0, 0, 0), clip(2, 2, 2, 1), clip(1, 2, 1, 0), clip(1, 1, 1, 1)];

  it("holds the pooled score, the same on every run, and has no width when every clip is alike", () => {
    const pooled = scoreShots(mixed);
    const { f1, madeAccuracy } = clipBootstrapIntervals(mixed);
    expect(f1![0]).toBeLessThan(pooled.f1);
    expect(f1![1]).toBeGreaterThan(pooled.f1);
    expect(madeAccuracy![0]).toBeLessThan(pooled.madeAccuracy!);
    expect(madeAccuracy![1]).toBeGreaterThan(pooled.madeAccuracy!);
    expect(clipBootstrapIntervals(mixed)).toEqual({ f1, madeAccuracy });
    expect(clipBootstrapIntervals(Array(6).fill(clip(2, 2, 2, 1)))).toEqual({ f1: [1, 1], madeAccuracy: [0.5, 0.5] });
  });

  it("narrows as the same kind of clips grows in number, and is null where nothing defines it", () => {
    const width = (i: [number, number] | null) => i![1] - i![0];
    const few = clipBootstrapIntervals(mixed), many = clipBootstrapIntervals(Array.from({ length: 10 }, () => mixed).flat());
    expect(width(many.f1)).toBeLessThan(width(few.f1) / 2);
    expect(width(many.madeAccuracy)).toBeLessThan(width(few.madeAccuracy) / 2);
    expect(clipBootstrapIntervals([])).toEqual({ f1: null, madeAccuracy: null });
    expect(clipBootstrapIntervals([clip(1, 0, 0, 0)]).madeAccuracy).toBeNull();
  });
});
