import { describe, expect, it } from "vitest";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLandmarks, courtNormed, isThreePoint, threeBreakFromBaseline } from "../../gpu-runner/analysis/rules/court-template.ts";

describe("court templates", () => {
  it("the three-point line's straight part meets the arc: the break is at the arc's radius from the basket", () => {
    for (const id of COURT_TYPE_IDS) {
      const t = COURT_TEMPLATES[id];
      const lm = courtLandmarks(t);
      expect(Math.hypot(lm.three_break_left[0] - t.basketFromBaseline, lm.three_break_left[1])).toBeCloseTo(t.threeRadius, 6);
      expect(lm.three_corner_right[0]).toBe(0);
    }
    // FIBA: the straight part runs 2.99 m from the baseline (diagram 1).
    expect(threeBreakFromBaseline(COURT_TEMPLATES.fiba)).toBeCloseTo(2.99, 2);
    // NBA: about 14 ft (4.27 m) along the sideline.
    expect(Math.abs(threeBreakFromBaseline(COURT_TEMPLATES.nba) - 4.27)).toBeLessThan(0.1);
  });

  it("the rule books differ where they should: arcs, lanes, court length", () => {
    const r = (id: keyof typeof COURT_TEMPLATES) => COURT_TEMPLATES[id].threeRadius;
    expect(r("high_school")).toBeLessThan(r("fiba_2008"));
    expect(r("fiba_2008")).toBeLessThan(r("ncaa"));
    expect(r("ncaa")).toBeCloseTo(r("fiba"), 2);
    expect(r("fiba")).toBeLessThan(r("nba"));
    expect(COURT_TEMPLATES.ncaa.keyWidthBaseline).toBeCloseTo(3.66, 2);
    expect(COURT_TEMPLATES.fiba_2008.keyWidthBaseline).toBeGreaterThan(COURT_TEMPLATES.fiba_2008.keyWidthFreeThrow);
  });

  it("a spot 7 m straight out from the basket is a three in high school and FIBA, a two in the NBA", () => {
    const spot = (id: keyof typeof COURT_TEMPLATES): [number, number] => [COURT_TEMPLATES[id].basketFromBaseline + 7, 0];
    expect(isThreePoint(COURT_TEMPLATES.high_school, spot("high_school"))).toBe(true);
    expect(isThreePoint(COURT_TEMPLATES.fiba, spot("fiba"))).toBe(true);
    expect(isThreePoint(COURT_TEMPLATES.nba, spot("nba"))).toBe(false);
    // In the corner beyond the straight part: a three everywhere; at the free-throw line: a two.
    for (const id of COURT_TYPE_IDS) {
      expect(isThreePoint(COURT_TEMPLATES[id], [0.5, 7.2])).toBe(true);
      expect(isThreePoint(COURT_TEMPLATES[id], [5.8, 0])).toBe(false);
    }
  });
});

describe("court positions for the chart", () => {
  it("normalises by the court type's own width and half length", () => {
    expect(courtNormed(COURT_TEMPLATES.fiba, [7, 0])).toEqual([0.5, 0.5]);
    const hs = courtNormed(COURT_TEMPLATES.high_school, [COURT_TEMPLATES.high_school.halfLength, -COURT_TEMPLATES.high_school.width / 2]);
    expect(hs[0]).toBeCloseTo(0, 9);
    expect(hs[1]).toBeCloseTo(1, 9);
    expect(courtNormed(COURT_TEMPLATES.nba, [-1, 20])).toEqual([1, 0]);
  });
});
