import { describe, expect, it } from "vitest";
import { bestCourtType, fitCourt, imageToCourt, leaveOneOutErrors, median, type NamedPoint } from "../../gpu-runner/analysis/rules/court-fit.ts";
import { COURT_TEMPLATES, courtLandmarks, type CourtTypeId } from "../../gpu-runner/analysis/rules/court-template.ts";
import { applyHomography, type H3 } from "../../gpu-runner/vision/homography.ts";

// Court metres → pixels: a camera beside the court looking at the basket at an angle.
const CAMERA: H3 = [38, -22, 480, 6, 9, 300, 0.004, -0.028, 1];
const NAMES = ["corner_baseline_left", "three_corner_left", "baseline_lane_left", "baseline_lane_right", "ft_lane_left", "ft_lane_right", "ft_circle_top"];

function labelled(type: CourtTypeId, names = NAMES): NamedPoint[] {
  const lm = courtLandmarks(COURT_TEMPLATES[type]);
  return names.map((name) => {
    const [x, y] = applyHomography(CAMERA, lm[name]);
    return { name, x, y };
  });
}

describe("fitting a court type to named points", () => {
  it("leave-one-out: near zero on the court type the points come from, metres off on others", () => {
    const points = labelled("nba");
    expect(Math.max(...leaveOneOutErrors("nba", points))).toBeLessThan(1e-6);
    expect(median(leaveOneOutErrors("ncaa", points))).toBeGreaterThan(0.3);
    const best = bestCourtType(points)!;
    expect(best.type).toBe("nba");
    expect(best.byType.fiba_2008).toBeGreaterThan(best.byType.nba);
  });

  it("tells the trapezoid key of the pre-2010 FIBA court from today's", () => {
    expect(bestCourtType(labelled("fiba_2008"))!.type).toBe("fiba_2008");
    expect(bestCourtType(labelled("fiba"))!.type).toBe("fiba");
  });

  it("four points fit exactly and check nothing; fewer do not fit", () => {
    const four = labelled("fiba", NAMES.slice(2, 6));
    expect(leaveOneOutErrors("fiba", four)).toEqual([]);
    expect(bestCourtType(four)).toBeNull();
    expect(fitCourt("fiba", four.slice(0, 3))).toBeNull();
    const h = fitCourt("fiba", four)!;
    const spot = imageToCourt(h, applyHomography(CAMERA, [5.8, 0]))!;
    expect(Math.hypot(spot[0] - 5.8, spot[1])).toBeLessThan(1e-6);
  });

  it("names the template does not know are ignored, not fitted", () => {
    const points = [...labelled("fiba"), { name: "scorer_table", x: 1, y: 1 }];
    expect(leaveOneOutErrors("fiba", points)).toHaveLength(NAMES.length);
  });
});
