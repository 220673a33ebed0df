// Named settings of the real-footage stages reach the stages, so a bench can sweep them.
import { describe, expect, it } from "vitest";
import { parseSettingArgs } from "../../bench/realclips.ts";
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
  });

  it("reads the bench's --set arguments and refuses names that do not exist", () => {
    expect(parseSettingArgs(["attempts.NEAR_RIM_WIDTHS=1.5", "realFootage.watch.CALM_EVERY_FRAMES=1", "analysisFps=10"])).toEqual({
      attempts: { NEAR_RIM_WIDTHS: 1.5 },
      realFootage: { watch: { CALM_EVERY_FRAMES: 1 } },
      analysisFps: 10,
    });
    expect(() => parseSettingArgs(["attempts.NEAR_RIM=1"])).toThrow(/unknown setting attempts.NEAR_RIM/);
    expect(() => parseSettingArgs(["attempts.NEAR_RIM_WIDTHS"])).toThrow(/name=value/);
  });
});
