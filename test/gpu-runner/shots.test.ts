import { describe, expect, it } from "vitest";
import { detectShots, flightStart } from "../../gpu-runner/analysis/rules/shots.ts";
import { dominantOwner, lastPasser, mergeSamePlayer, possessionSegments, reboundSegment, type PasserRule } from "../../gpu-runner/analysis/rules/possession.ts";
import { dribbleBounces, feetUnderBall, fitHeightModel, pickDribbler, pickShooter } from "../../gpu-runner/analysis/rules/release.ts";
import type { PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";
import { buildBallTrack, buildHoopTracks, fillGaps, PlayerTracker, trackBoxAt, type BallObs, type HoopTrack } from "../../gpu-runner/analysis/rules/tracks.ts";
import type { Detection } from "../../gpu-runner/vision/detections.ts";

const fps = 30;
const rim = { cx: 400, cy: 100, w: 20, h: 6 };
const hoop: HoopTrack = { id: 0, coverage: 1, detections: 300, boxes: Array.from({ length: 300 }, () => ({ ...rim })) };
const ball = (cx: number, cy: number): BallObs => ({ cx, cy, w: 8, h: 8, score: 0.9 });

/** A parabola from (x0, y0) to the aim point, then either straight down (made) or bouncing away (miss). */
function shotPath(made: boolean, missDx = 40): Array<BallObs | null> {
  const out: Array<BallObs | null> = [];
  for (let f = 0; f < 30; f++) out.push(ball(200, 250)); // held
  const x0 = 200, y0 = 220, x1 = 400, y1 = 97;
  for (let f = 0; f <= 30; f++) {
    const s = f / 30;
    out.push(ball(x0 + (x1 - x0) * s, y0 + (y1 - y0) * s - 140 * 4 * s * (1 - s)));
  }
  for (let f = 1; f <= 30; f++) out.push(made ? ball(400, 97 + f * 8) : ball(400 + missDx * (f / 10), 97 + f * 5));
  for (let f = 0; f < 60; f++) out.push(null);
  return out;
}

describe("shot detection", () => {
  it("finds a made shot", () => {
    const shots = detectShots(shotPath(true), [hoop], { fps });
    expect(shots).toHaveLength(1);
    expect(shots[0].made).toBe(true);
    expect(shots[0].rimFrame).toBeGreaterThan(40);
  });

  it("finds a miss that rims out sideways", () => {
    const shots = detectShots(shotPath(false), [hoop], { fps });
    expect(shots).toHaveLength(1);
    expect(shots[0].made).toBe(false);
  });

  it("calls a ball that lingers at rim level a miss even when it then falls inside the rim's column", () => {
    // Off the front of the rim and towards the camera: in the image it pops up a little, hangs at
    // rim level for 0.3 s, then drops straight down — the path of a make, but for the dwell.
    const path = shotPath(true);
    const contact = path.findIndex((b, f) => f > 30 && b !== null && b.cy === 97);
    const bounce = Array.from({ length: 9 }, (_, k) => ball(400, 97 - 6 * Math.sin((Math.PI * (k + 1)) / 10)));
    path.splice(contact + 1, 0, ...bounce);
    const shots = detectShots(path, [hoop], { fps });
    expect(shots).toHaveLength(1);
    expect(shots[0].made).toBe(false);
  });

  it("ignores a ball held near the rim that never arrived from away", () => {
    const held = Array.from({ length: 120 }, () => ball(405, 90));
    expect(detectShots(held, [hoop], { fps })).toHaveLength(0);
  });

  it("builds a continuous ball path and keeps the hoop that persists", () => {
    const det = (className: Detection["className"], cx: number, cy: number, score = 0.9): Detection => ({ className, cx, cy, w: 10, h: 10, score });
    const frames: Detection[][] = Array.from({ length: 50 }, (_, f) => {
      const d: Detection[] = [det("rim", 400, 100)];
      if (f % 5 !== 2) d.push(det("ball", 100 + f * 4, 200));
      if (f === 10) d.push(det("ball", 500, 300, 0.95), det("rim", 50, 50)); // a distractor and a one-frame "hoop"
      return d;
    });
    const track = buildBallTrack(frames, { maxJump: 30 });
    expect(track.every((b) => b !== null)).toBe(true);
    expect(track[10]!.cx).toBe(140); // nearest to the prediction, not the most confident
    expect(track[12]!.interpolated).toBe(true);
    const hoops = buildHoopTracks(frames);
    expect(hoops).toHaveLength(1);
    expect(hoops[0].boxes[0].cx).toBe(400);
    expect(fillGaps([ball(0, 0), null, null, null, null, null, ball(10, 0)], 3)[3]).toBeNull();
  });
});

describe("release and possession", () => {
  it("dates the release from the start of the ball's rise", () => {
    const path = shotPath(true);
    const [ev] = detectShots(path, [hoop], { fps });
    // The held ball sits still for frames 0-29; the flight starts at frame 30 (the last frame in
    // hand or the first in the air are both the release to within one frame).
    const f = flightStart(path, ev.rimFrame, fps)!;
    expect(f).toBeGreaterThanOrEqual(29);
    expect(f).toBeLessThanOrEqual(30);
  });

  it("segments possession, merges a hidden dribble, and names the dominant holder", () => {
    const owners: Array<string | null> = [
      ...Array(10).fill("a"), ...Array(5).fill(null), ...Array(10).fill("b"), ...Array(20).fill(null), ...Array(8).fill("b"), ...Array(2).fill("c"), ...Array(6).fill("b"),
    ];
    const segs = possessionSegments(owners, { minFrames: 3, bridge: 2 });
    // The 2-frame "c" blip is too short to be a possession.
    expect(segs.map((s) => [s.track, s.start, s.end])).toEqual([["a", 0, 9], ["b", 15, 24], ["b", 45, 52], ["b", 55, 60]]);
    const merged = mergeSamePlayer(segs, 30, []);
    expect(merged.map((s) => [s.track, s.start, s.end])).toEqual([["a", 0, 9], ["b", 15, 60]]);
    // A shot in between keeps them apart.
    expect(mergeSamePlayer(segs, 30, [40]).length).toBe(3);
    expect(dominantOwner(owners, 40, 60)).toBe("b");
  });

  it("reads the approach carrier: equal weights and only eligible players", () => {
    // The shooter dribbles for 11 frames, then a defender overlaps the ball for the last 9.
    const owners: Array<string | null> = [...Array(11).fill("shooter"), ...Array(9).fill("defender")];
    expect(dominantOwner(owners, 0, 19)).toBe("defender"); // late frames weigh up to twice as much
    expect(dominantOwner(owners, 0, 19, { lateWeight: 0 })).toBe("shooter");
    // A fragment that is never credited (invalid identity) is skipped.
    expect(dominantOwner(["junk", "junk", "junk", "a", null], 0, 4, { lateWeight: 0, eligible: (k) => k !== "junk" })).toBe("a");
    expect(dominantOwner([null, null], 0, 1, { lateWeight: 0 })).toBeNull();
  });
});

describe("last passer (assists)", () => {
  const teams: Record<string, number> = { a1: 0, a2: 0, a3: 0, b1: 1, b2: 1 };
  const seg = (track: string, start: number, end: number) => ({ track, start, end });
  const rule = (over: Partial<PasserRule> = {}): PasserRule => ({
    opponentFrames: 10, maxGapFrames: 30, notBefore: -1, teamOf: (k) => teams[k] ?? null, ballTravelled: () => true, ...over,
  });

  it("names the teammate who passed to the scorer", () => {
    const segs = [seg("a1", 0, 20), seg("a2", 26, 60)];
    expect(lastPasser(segs, "a2", 60, rule())).toBe("a1");
    // Nobody passed to the first holder of the play.
    expect(lastPasser(segs, "a1", 20, rule())).toBeNull();
  });

  it("skips a defender's brief touch but stops at a real change of possession", () => {
    // The pass flies past b1 for 5 frames: still a1's assist.
    expect(lastPasser([seg("a1", 0, 20), seg("b1", 22, 26), seg("a2", 28, 60)], "a2", 60, rule())).toBe("a1");
    // b1 held it for 15 frames (more than 10): a steal and a turnover back, no assist.
    expect(lastPasser([seg("a1", 0, 20), seg("b1", 22, 36), seg("a2", 38, 60)], "a2", 60, rule())).toBeNull();
  });

  it("joins the scorer's own segments split by a defender's overlap, and stops at the previous shot or a long gap", () => {
    const segs = [seg("a1", 0, 20), seg("a2", 25, 40), seg("b2", 41, 45), seg("a2", 46, 60)];
    expect(lastPasser(segs, "a2", 60, rule())).toBe("a1");
    expect(lastPasser(segs, "a2", 60, rule({ notBefore: 20 }))).toBeNull();
    expect(lastPasser([seg("a1", 0, 20), seg("a2", 60, 80)], "a2", 80, rule())).toBeNull();
  });

  it("treats a hand-off where the ball did not move as one player's split track", () => {
    // a3 is the scorer's own track under another identity: the ball did not travel from a3 to a2.
    const segs = [seg("a1", 0, 20), seg("a3", 25, 40), seg("a2", 41, 60)];
    const travelled = (fromEnd: number, toStart: number) => !(fromEnd === 40 && toStart === 41);
    expect(lastPasser(segs, "a2", 60, rule({ ballTravelled: travelled }))).toBe("a1");
    expect(lastPasser(segs, "a2", 60, rule())).toBe("a3");
  });

  it("never credits a scorer without a team", () => {
    expect(lastPasser([seg("a1", 0, 20), seg("x", 26, 60)], "x", 60, rule())).toBeNull();
  });
});

describe("rebounder", () => {
  const seg = (track: string, start: number, end: number) => ({ track, start, end });
  it("credits the player who secures the ball, not one it grazed on the way down", () => {
    const segs = [seg("shooter", 0, 10), seg("grazed", 22, 23), seg("secured", 25, 40), seg("later", 50, 60)];
    expect(reboundSegment(segs, 20, 80, 4)?.track).toBe("secured");
    // Only a brief touch before the next shot: that player is still the best guess.
    expect(reboundSegment(segs, 20, 24, 4)?.track).toBe("grazed");
    expect(reboundSegment(segs, 61, 80, 4)).toBeNull();
  });
});

describe("dribbler", () => {
  // Image y grows downwards: a bounce is the lowest point (largest y) of a dribble.
  const dribble = (frames: number, period: number, floorY: number, handY: number) =>
    Array.from({ length: frames }, (_, f) => ball(300, floorY - (floorY - handY) * Math.abs(Math.cos((Math.PI * (f + 0.5)) / period))));

  it("finds each floor contact of a dribble, and none while the ball is held", () => {
    const path = [...Array.from({ length: 10 }, () => ball(300, 200)), ...dribble(33, 11, 300, 200)];
    const bounces = dribbleBounces(path, 0, path.length - 1, 3, () => 30);
    // Contacts at f ≈ 10 + 5, 16, 27 (cos = 0 every 11 frames, offset by half a period).
    expect(bounces.length).toBe(3);
    for (const f of bounces) expect(path[f]!.cy).toBeGreaterThan(290);
    // A held ball (flat) and a shallow wobble are not bounces.
    expect(dribbleBounces(Array.from({ length: 20 }, (_, f) => ball(300, 200 + (f % 2))), 0, 19, 3, () => 30)).toEqual([]);
    // Interpolated positions are guesses, never a contact.
    const guessed = path.map((b) => (b ? { ...b, interpolated: true } : b));
    expect(dribbleBounces(guessed, 0, path.length - 1, 3, () => 30)).toEqual([]);
  });

  it("credits the player standing nearest the bounces on the floor, not a defender farther off", () => {
    const at = (frame: number, spot: [number, number]) => ({
      frame,
      spot,
      candidates: [
        { key: "shooter", world: [spot[0] + 0.4, spot[1]] as [number, number] },
        { key: "defender", world: [spot[0] - 1.9, spot[1] + 0.3] as [number, number] },
      ],
    });
    expect(pickDribbler([at(10, [5, 2]), at(20, [5.2, 2])])).toBe("shooter");
    // Nobody within 1.2 m of the bounce: no vote.
    expect(pickDribbler([{ frame: 1, spot: [0, 0], candidates: [{ key: "far", world: [2, 0] }] }])).toBeNull();
    // Equal votes: the later bounce wins.
    expect(pickDribbler([
      { frame: 1, spot: [0, 0], candidates: [{ key: "a", world: [0.2, 0] }] },
      { frame: 9, spot: [5, 0], candidates: [{ key: "b", world: [5.2, 0] }] },
    ])).toBe("b");
  });
});

describe("shooter on the floor", () => {
  // Players stand at feet rows 200..350; their boxes grow 0.4 px per row (h = 0.4·feetY − 20).
  const tracks: PlayerTrack[] = [200, 250, 300, 350].map((feetY, id) => {
    const h = 0.4 * feetY - 20;
    return { id, frames: Array.from({ length: 30 }, (_, f) => f), boxes: Array.from({ length: 30 }, () => ({ cx: 100 + id * 50, cy: feetY - h / 2, w: h / 3, h })), colors: [], jerseyReads: [] };
  });

  it("fits box height against the feet row and puts the floor under a held ball", () => {
    const model = fitHeightModel(tracks)!;
    expect(model(300)).toBeCloseTo(100, 3);
    // A ball at chest height (half the player's height) of a player whose feet are at row 300.
    const feet = feetUnderBall([160, 300 - 0.5 * 100], model, 0.5);
    expect(feet[1]).toBeCloseTo(300, 0);
    expect(fitHeightModel(tracks.slice(0, 1).map((t) => ({ ...t, boxes: t.boxes.slice(0, 3), frames: t.frames.slice(0, 3) })))).toBeNull();
  });

  it("picks the player standing closest to the spot, within 1.8 m", () => {
    const candidates = [
      { key: "defender", world: [5, 1.9] as [number, number] },
      { key: "shooter", world: [5, 0.3] as [number, number] },
    ];
    expect(pickShooter(candidates, [5, 0], null)).toEqual({ key: "shooter", distance: expect.closeTo(0.3, 5) });
    expect(pickShooter(candidates, [5, -2], null)).toBeNull();
    // The holder bonus gives the ball's holder a head start in metres.
    expect(pickShooter(candidates, [5, 1.0], "defender", 1.8, 0.5)!.key).toBe("defender");
  });
});

describe("player tracks", () => {
  const person = (cx: number, color: [number, number, number]) => ({ className: "person" as const, score: 0.9, cx, cy: 200, w: 30, h: 90, color });
  const red: [number, number, number] = [200, 30, 30], blue: [number, number, number] = [30, 30, 200];

  it("keeps two people apart when they cross, by shirt colour", () => {
    const tracker = new PlayerTracker(4);
    for (let f = 0; f <= 20; f++) tracker.update(f, [person(100 + f * 10, red), person(300 - f * 10, blue)]);
    expect(tracker.tracks).toHaveLength(2);
    const [a, b] = tracker.tracks;
    expect(a.colors.every((c) => c[0] === 200)).toBe(true);
    expect(b.colors.every((c) => c[2] === 200)).toBe(true);
    expect(trackBoxAt(a, 20)!.cx).toBe(300);
    expect(trackBoxAt(b, 20)!.cx).toBe(100);
  });

  it("bridges a short gap and starts a new track after a long one", () => {
    const tracker = new PlayerTracker(4);
    for (const f of [0, 1, 2, 5, 6]) tracker.update(f, [person(100, red)]); // hidden for 2 frames
    expect(tracker.tracks).toHaveLength(1);
    expect(trackBoxAt(tracker.tracks[0], 4, 1)!.cx).toBe(100);
    expect(trackBoxAt(tracker.tracks[0], 4, 0)).toBeNull();
    tracker.update(20, [person(100, red)]); // gone for 14 frames: a new track
    expect(tracker.tracks).toHaveLength(2);
  });
});
