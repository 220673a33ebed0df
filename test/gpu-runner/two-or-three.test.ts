// The real-clip bench's truth of which attempts were taken from behind the three-point line
// (bench/two-or-three.json, issue 25 point 3) and how the bench checks the analysis's 2 or 3 against it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkTwoOrThree, twoOrThreeTruth } from "../../bench/realclips.ts";
import { clipName, readManifest } from "../../bench/realclips-manifest.ts";

const data = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/two-or-three.json"), "utf8")) as {
  attempts: Array<{ clip: string; split: string; release_s: number; three: boolean; why: string }>;
  not_told: Array<{ clip: string; split: string; release_s: number; why: string }>;
};

describe("the real-clip bench's 2-or-3 truth (bench/two-or-three.json)", () => {
  it("labels or lists as not told each attempt of a clip with a court in view once, with its split and both lookers' reasons", () => {
    const manifest = new Map(readManifest().map((c) => [clipName(c), c]));
    const listed = [...data.attempts, ...data.not_told];
    for (const a of listed) {
      const clip = manifest.get(a.clip);
      expect(clip, a.clip).toBeDefined();
      expect(a.split, a.clip).toBe(clip!.split);
      expect(clip!.shots.some((s) => s.release_s === a.release_s), `${a.clip} at ${a.release_s}`).toBe(true);
      expect(a.why, a.clip).toMatch(/^A.*B/);
    }
    expect(new Set(listed.map((a) => `${a.clip}@${a.release_s}`)).size).toBe(listed.length);
    // Every attempt with a release, but for the rim close-ups (no court in view), was looked at.
    const lookedAt = [...manifest.values()].filter((c) => !clipName(c).startsWith("sujay_")).flatMap((c) => c.shots.filter((s) => s.release_s !== null));
    expect(listed).toHaveLength(lookedAt.length);
    for (const a of data.attempts) expect(typeof a.three).toBe("boolean");
    // The attempts labelled with the court landmarks (feet and 2 or 3, bench/court-landmarks.json) agree.
    const landmarks = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/court-landmarks.json"), "utf8")) as { attempts: Array<{ clip: string; release_s: number; points: number }> };
    for (const l of landmarks.attempts) {
      const here = data.attempts.find((a) => a.clip === l.clip && Math.abs(a.release_s - l.release_s) < 0.1);
      if (here) expect(here.three, `${l.clip} at ${l.release_s}`).toBe(l.points === 3);
    }
    expect([...twoOrThreeTruth().values()].flat()).toHaveLength(data.attempts.length);
  });

  it("checks the call of each matched attempt labelled 2 or 3, and no other", () => {
    const truth = [
      { release_s: 1, result_s: 2, made: true },
      { release_s: 5, result_s: 6, made: false },
      { release_s: null, result_s: 9, made: true },
    ];
    const found = [
      { release: 1.3, rim: 1.9, made: true, three: true, onCourt: true },
      { release: 5.1, rim: 6, made: false, three: false, onCourt: false },
      { release: 12, rim: 12.5, made: true, three: false, onCourt: false },
    ];
    // Only the first attempt is labelled (a 2, called 3 on a registered court); the second is not
    // labelled and the shot found at 12 s matches nothing.
    expect(checkTwoOrThree(truth, found, [{ release_s: 1, three: false }])).toEqual([{ release_s: 1, truth: false, found: true, onCourt: true }]);
    // Both labelled: each matched pair checked, in release order.
    expect(checkTwoOrThree(truth, found, [{ release_s: 5, three: false }, { release_s: 1, three: true }])).toEqual([
      { release_s: 1, truth: true, found: true, onCourt: true },
      { release_s: 5, truth: false, found: false, onCourt: false },
    ]);
    // A label whose attempt was not found is not checked.
    expect(checkTwoOrThree(truth, found.slice(2), [{ release_s: 1, three: false }])).toEqual([]);
  });
});
