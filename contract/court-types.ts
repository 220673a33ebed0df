// The court types a court can be registered as, with their rule-book dimensions in metres, in one
// place for both sides: the runner fits these templates to a video's painted lines and reports the
// type each shot's court position is measured on (gpu-runner/analysis/rules/court-template.ts, the
// runner API's `shots[].court`), and the hub page draws the shot chart of that type and names it
// (worker/hub/shot-chart.tsx). Pure data: no Worker or Node API.

export const COURT_TYPE_IDS = ["fiba", "fiba_2008", "nba", "ncaa", "high_school"] as const;

export type CourtTypeId = (typeof COURT_TYPE_IDS)[number];

export interface CourtTemplate {
  id: CourtTypeId;
  /** The type in words, as the hub page names it. */
  label: string;
  /** Sideline to sideline. */
  width: number;
  /** Baseline to the half-court line. */
  halfLength: number;
  /** Baseline to the centre of the basket (the ring's centre seen from above). */
  basketFromBaseline: number;
  /** Key (lane) width at the baseline and at the free-throw line (equal except on the pre-2010 FIBA trapezoid). */
  keyWidthBaseline: number;
  keyWidthFreeThrow: number;
  /** Baseline to the free-throw line (its far edge, where the shooter stands behind). */
  freeThrowFromBaseline: number;
  freeThrowCircleRadius: number;
  /** Three-point arc: radius from the basket's centre, and distance from the centre line of the straight corner parts. */
  threeRadius: number;
  threeCornerOffset: number;
  /** The no-charge semicircle's radius around the basket, where the rule book has one (drawn on the chart; not fitted). */
  restrictedArcRadius: number | null;
}

const FT = 0.3048; // metres per foot: the American rule books are in feet and inches

/**
 * The rule books. FIBA 2010+: FIBA Official Basketball Rules, diagram 1. FIBA 2008: the same
 * rules before the 2010 change (trapezoid key 6 m wide at the baseline and 3.6 m at the line,
 * 6.25 m arc, still painted on many public courts). NBA: rule 1. NCAA: the men's line since
 * 2019-20 and the women's since 2021-22 (22 ft 1¾ in, corners 21 ft 8 in), 12 ft lane.
 * High school: NFHS rule 1 (84 × 50 ft court, 19 ft 9 in arc, 12 ft lane). The restricted-area arc:
 * FIBA since 2010 (1.25 m), NBA and NCAA (4 ft); none before 2010 in FIBA, none in NFHS.
 */
export const COURT_TEMPLATES: Record<CourtTypeId, CourtTemplate> = {
  fiba: {
    id: "fiba", label: "FIBA", width: 15, halfLength: 14, basketFromBaseline: 1.575,
    keyWidthBaseline: 4.9, keyWidthFreeThrow: 4.9, freeThrowFromBaseline: 5.8, freeThrowCircleRadius: 1.8,
    threeRadius: 6.75, threeCornerOffset: 6.6, restrictedArcRadius: 1.25,
  },
  fiba_2008: {
    id: "fiba_2008", label: "FIBA (before 2010)", width: 15, halfLength: 14, basketFromBaseline: 1.575,
    keyWidthBaseline: 6, keyWidthFreeThrow: 3.6, freeThrowFromBaseline: 5.8, freeThrowCircleRadius: 1.8,
    threeRadius: 6.25, threeCornerOffset: 6.25, restrictedArcRadius: null,
  },
  nba: {
    id: "nba", label: "NBA", width: 50 * FT, halfLength: 47 * FT, basketFromBaseline: 63 / 12 * FT,
    keyWidthBaseline: 16 * FT, keyWidthFreeThrow: 16 * FT, freeThrowFromBaseline: 19 * FT, freeThrowCircleRadius: 6 * FT,
    threeRadius: 23.75 * FT, threeCornerOffset: 22 * FT, restrictedArcRadius: 4 * FT,
  },
  ncaa: {
    id: "ncaa", label: "NCAA", width: 50 * FT, halfLength: 47 * FT, basketFromBaseline: 63 / 12 * FT,
    keyWidthBaseline: 12 * FT, keyWidthFreeThrow: 12 * FT, freeThrowFromBaseline: 19 * FT, freeThrowCircleRadius: 6 * FT,
    threeRadius: (22 + 1.75 / 12) * FT, threeCornerOffset: (21 + 8 / 12) * FT, restrictedArcRadius: 4 * FT,
  },
  high_school: {
    id: "high_school", label: "High school (NFHS)", width: 50 * FT, halfLength: 42 * FT, basketFromBaseline: 63 / 12 * FT,
    keyWidthBaseline: 12 * FT, keyWidthFreeThrow: 12 * FT, freeThrowFromBaseline: 19 * FT, freeThrowCircleRadius: 6 * FT,
    threeRadius: 19.75 * FT, threeCornerOffset: 19.75 * FT, restrictedArcRadius: null,
  },
};

/** How a shot's court was found: registered from the court's painted lines (real footage), or from the painted key's colour (the synthetic games). */
export const COURT_FOUND_BY = ["lines", "painted_key"] as const;
export type CourtFoundBy = (typeof COURT_FOUND_BY)[number];
