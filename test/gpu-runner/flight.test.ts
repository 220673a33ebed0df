// The release from the ball's free flight (analysis/rules/flight.ts), on small arrays of sightings.
import { describe, expect, it } from "vitest";
import { ballisticRelease, RELEASE_DEFAULTS } from "../../gpu-runner/analysis/rules/flight.ts";
import { flightStartDetail } from "../../gpu-runner/analysis/rules/shots.ts";
import type { BallObs } from "../../gpu-runner/analysis/rules/tracks.ts";

const FPS = 15;
const RELEASE = 20;
const BALL = 12;

/** A jump shot: the ball carried up with the body (slow, in hand) until frame 20, then a parabola to the rim. */
function jumpShot(frames = 45): Array<BallObs | null> {
  return Array.from({ length: frames }, (_, f) => {
    const t = (f - RELEASE) / FPS;
    const [x, y] = f < RELEASE ? [200 + 0.5 * (f - RELEASE), 330 + 2.5 * (RELEASE - f)] : [200 + 120 * t, 330 - 420 * t + 260 * t * t];
    return { cx: x, cy: y, w: BALL, h: BALL, score: 0.8 };
  });
}
/** The frame the ball reaches the rim (here: back down to 200 px, the rim's height, after the apex). */
const RIM_FRAME = 40;

describe("ballisticRelease", () => {
  it("finds the release where the sightings leave the flight, seen in every frame", () => {
    const r = ballisticRelease(jumpShot(), RIM_FRAME, FPS)!;
    expect(Math.abs(r.frame - RELEASE)).toBeLessThanOrEqual(1);
    expect(r.held).toBe(true);
  });

  it("bridges missed frames: every other sighting and a three-frame gap on the way up give the same release (the walk up the rise stopped at the gap)", () => {
    const ball = jumpShot().map((b, f) => (f % 2 === 1 || (f >= 26 && f <= 28) ? null : b));
    const r = ballisticRelease(ball, RIM_FRAME, FPS)!;
    expect(Math.abs(r.frame - RELEASE)).toBeLessThanOrEqual(1);
    const walk = flightStartDetail(ball, RIM_FRAME, FPS, { windowS: RELEASE_DEFAULTS.SEARCH_S, contiguous: true });
    expect(walk?.frame ?? RIM_FRAME).toBeGreaterThan(RELEASE + 5);
  });

  it("one stray sighting on the way up (a hand, a second ball) does not end the flight", () => {
    const ball = jumpShot();
    ball[24] = { ...ball[24]!, cx: ball[24]!.cx + 80, cy: ball[24]!.cy + 60 };
    expect(Math.abs(ballisticRelease(ball, RIM_FRAME, FPS)!.frame - RELEASE)).toBeLessThanOrEqual(1);
  });

  it("a gap longer than MAX_GAP_S ends the search: the flight starts after it, not at the ball held before it", () => {
    const ball = jumpShot().map((b, f) => (f >= 18 && f <= 24 ? null : b));
    const r = ballisticRelease(ball, RIM_FRAME, FPS)!;
    expect(r.frame).toBe(25);
    expect(r.held).toBe(false);
  });

  it("interpolated fill is not a sighting", () => {
    const ball = jumpShot().map((b, f) => (f < 25 ? (b ? { ...b, cy: 900, interpolated: true } : b) : b));
    expect(ballisticRelease(ball, RIM_FRAME, FPS)!.frame).toBe(25);
  });

  it("leaves the decision to the walk when the flight is too thinly seen to fit, or does not fall", () => {
    const sparse = jumpShot().map((b, f) => (f === 30 || f === 33 || f === 40 ? b : null));
    expect(ballisticRelease(sparse, RIM_FRAME, FPS)).toBeNull();
    const rising = Array.from({ length: 45 }, (_, f): BallObs => ({ cx: 100, cy: 400 - 2 * f - 0.05 * f * f, w: BALL, h: BALL, score: 1 }));
    expect(ballisticRelease(rising, 44, FPS)).toBeNull();
  });

  it("the tolerance is in ball diameters: the same shot filmed twice as large gives the same release", () => {
    const big = jumpShot().map((b) => b && { ...b, cx: 2 * b.cx, cy: 2 * b.cy, w: 2 * b.w, h: 2 * b.h });
    expect(ballisticRelease(big, RIM_FRAME, FPS)!.frame).toBe(ballisticRelease(jumpShot(), RIM_FRAME, FPS)!.frame);
  });
});

describe("ballisticRelease after an earlier shot", () => {
  it("takes the apex of the flight that reached the rim, not a higher apex of the previous shot seen across short gaps", () => {
    // The previous shot (released at frame 20, its apex higher) and then this one, released at frame 60 from lower down.
    const earlier = jumpShot(45);
    const ball: Array<BallObs | null> = [...earlier, ...Array.from({ length: 30 }, (_, k): BallObs | null => (k % 3 === 0 ? { cx: 300 - 3 * k, cy: 340 - 0.4 * k, w: BALL, h: BALL, score: 0.6 } : null))];
    for (let f = 75; f < 100; f++) {
      const t = (f - 75) / FPS;
      ball.push({ cx: 210 + 110 * t, cy: 330 - 330 * t + 260 * t * t, w: BALL, h: BALL, score: 0.8 });
    }
    const r = ballisticRelease(ball, 95, FPS)!;
    expect(Math.abs(r.frame - 75)).toBeLessThanOrEqual(1);
  });
});

describe("ballisticRelease for a flight that leaves the picture over the top", () => {
  // Released at frame 20, a high arc whose top is 200 px above the picture: out of it (centre above
  // half a ball) from frame 25 to frame 50, back down to the rim's height (150 px) at frame 54.
  const OUT_RELEASE = 20, OUT_RIM = 54;
  function overTheTop(): Array<BallObs | null> {
    return Array.from({ length: 60 }, (_, f) => {
      const t = (f - OUT_RELEASE) / FPS;
      const [x, y] = f < OUT_RELEASE ? [100 + 0.5 * (f - OUT_RELEASE), 200 + 2.5 * (OUT_RELEASE - f)] : [100 + 150 * t, 200 - 700 * t + 300 * t * t];
      return y < BALL / 2 ? null : { cx: x, cy: y, w: BALL, h: BALL, score: 0.8 };
    });
  }

  it("the ball above the picture is not lost: the flight is seeded on both sides of the gap and the release is found before it", () => {
    const ball = overTheTop();
    expect(ball.slice(25, 51).every((b) => b === null)).toBe(true);
    const r = ballisticRelease(ball, OUT_RIM, FPS)!;
    expect(Math.abs(r.frame - OUT_RELEASE)).toBeLessThanOrEqual(1);
  });

  it("a stray hit inside the gap does not stop it; a ball at the top edge that one parabola cannot join to the return is not where the flight left", () => {
    const withStray = overTheTop();
    withStray[40] = { cx: 400, cy: 300, w: BALL, h: BALL, score: 0.5 };
    expect(Math.abs(ballisticRelease(withStray, OUT_RIM, FPS)!.frame - OUT_RELEASE)).toBeLessThanOrEqual(1);
    // Another ball rising out of the picture far to the left, a second before: not this flight.
    const other = overTheTop().map((b, f) => (f <= 24 ? (b && { ...b, cx: b.cx - 600 - 40 * (f - 20) }) : b));
    expect(ballisticRelease(other, OUT_RIM, FPS)!.frame).toBeGreaterThanOrEqual(51);
  });
});
