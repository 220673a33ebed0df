// Named settings of the real-footage stages reach the stages, so a bench can sweep them.
import { describe, expect, it } from "vitest";
import { parseSettingArgs } from "../../bench/realclips.ts";
import { combinations } from "../../bench/realclips-sweep.ts";
import { realFootageSettings, REAL_FOOTAGE_DEFAULTS } from "../../gpu-runner/analysis/observe/real-footage.ts";

describe("real-footage settings", () => {
  it("lays overrides over the defaults stage by stage, keeping a stage's other settings", () => {
    const s = realFootageSettings({ watch: { CALM_EVERY_FRAMES: 1 }, maxRims: 3 });
    expect(s.watch.CALM_EVERY_FRAMES).toBe(1);
    expect(s.watch.WAKE_MOTION).toBe(REAL_FOOTAGE_DEFAULTS.watch.WAKE_MOTION);
    expect(s.maxRims).toBe(3);
    expect(s.rimTracks).toEqual(REAL_FOOTAGE_DEFAULTS.rimTracks);
    // The defaults themselves are never written to.
    expect(REAL_FOOTAGE_DEFAULTS.watch.CALM_EVERY_FRAMES).not.toBe(1);
    expect(() => realFootageSettings({ nonsense: 1 } as never)).toThrow(/unknown/);
    // A nested group keeps its other members (the path settings near a rim, in part).
    const nested = realFootageSettings({ balls: { RIM_BALL_PATH: { SIZE_RANGE_BALLS: [0.5, 2] } } });
    expect(nested.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS).toEqual([0.5, 2]);
    expect(nested.balls.RIM_BALL_PATH.SEED_SCORE).toBe(REAL_FOOTAGE_DEFAULTS.balls.RIM_BALL_PATH.SEED_SCORE);
    expect(nested.balls.SEED_MOTION_MIN).toBe(REAL_FOOTAGE_DEFAULTS.balls.SEED_MOTION_MIN);
  });

  it("reads the bench's --set arguments and refuses names that do not exist", () => {
    expect(parseSettingArgs(["attempts.NEAR_RIM_WIDTHS=1.5", "realFootage.watch.CALM_EVERY_FRAMES=1", "analysisFps=10"])).toEqual({
      attempts: { NEAR_RIM_WIDTHS: 1.5 },
      realFootage: { watch: { CALM_EVERY_FRAMES: 1 } },
      analysisFps: 10,
    });
    // The rules that decide which watched rims are rims (hoop.ts) are named settings like any other.
    expect(parseSettingArgs(["realFootage.rimSeen.MIN_SEEN_SHARE=0.5", "realFootage.rimPlay.MIN_NEAR_S=0.2"])).toEqual({ realFootage: { rimSeen: { MIN_SEEN_SHARE: 0.5 }, rimPlay: { MIN_NEAR_S: 0.2 } } });
    // The free-throw rule without a registered court (rules/free-throw.ts) too.
    expect(parseSettingArgs(["freeThrow.PAUSE_S=2", "freeThrow.MIN_DISTANCE_M=3"])).toEqual({ freeThrow: { PAUSE_S: 2, MIN_DISTANCE_M: 3 } });
    expect(() => parseSettingArgs(["freeThrow.PAUSE=2"])).toThrow(/unknown setting freeThrow.PAUSE/);
    expect(() => parseSettingArgs(["attempts.NEAR_RIM=1"])).toThrow(/unknown setting attempts.NEAR_RIM/);
    expect(() => parseSettingArgs(["attempts.NEAR_RIM_WIDTHS"])).toThrow(/name=value/);
  });

  it("sweeps every combination of the --vary lists (a value may be a JSON array)", () => {
    expect(combinations(["attempts.NEAR_RIM_WIDTHS=1|1.5", "realFootage.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS=[0.5,2]|[0.6,1.6]"])).toEqual([
      ["attempts.NEAR_RIM_WIDTHS=1", "realFootage.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS=[0.5,2]"],
      ["attempts.NEAR_RIM_WIDTHS=1", "realFootage.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS=[0.6,1.6]"],
      ["attempts.NEAR_RIM_WIDTHS=1.5", "realFootage.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS=[0.5,2]"],
      ["attempts.NEAR_RIM_WIDTHS=1.5", "realFootage.balls.RIM_BALL_PATH.SIZE_RANGE_BALLS=[0.6,1.6]"],
    ]);
    expect(combinations([])).toEqual([[]]);
    expect(() => combinations(["attempts.NEAR_RIM_WIDTHS"])).toThrow(/name=v1\|v2/);
  });
});
