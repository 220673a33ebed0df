// Issue 25, point 4: players who stay one person in a short clip.
import { describe, expect, it } from "vitest";
import { buildIdentities } from "../../gpu-runner/analysis/rules/players.ts";
import { clusterTeams, requireOpponent, sceneryTracks, TEAM_DEFAULTS } from "../../gpu-runner/analysis/rules/teams.ts";
import type { RGB } from "../../gpu-runner/analysis/types.ts";
import { splitTrackSwitches, TRACK_SPLIT_DEFAULTS, type PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";

const track = (id: number, start: number, len: number, cx: number, color: RGB | null): PlayerTrack => ({
  id,
  frames: Array.from({ length: len }, (_, i) => start + i),
  boxes: Array.from({ length: len }, () => ({ cx, cy: 300, w: 40, h: 100 })),
  colors: color ? Array.from({ length: len }, () => color) : [],
  jerseyReads: [],
});
const none = (tracks: PlayerTrack[]) => new Map<number, string | null>(tracks.map((t) => [t.id, null]));

describe("one team when every shirt is one colour", () => {
  it("does not invent an opponent from light and shade on one shirt", () => {
    // One red shirt, seen in light and in shade: 40 apart, under the 50 a second team needs.
    const r = clusterTeams([[200, 40, 40], [200, 40, 40], [170, 25, 25], [175, 30, 30]], [300, 200, 150, 100]);
    expect(r.teamCount).toBe(1);
    expect(new Set(r.labels)).toEqual(new Set([0]));
  });

  it("still finds two teams when there are two shirt colours", () => {
    const r = clusterTeams([[30, 70, 200], [240, 200, 30]], [100, 100]);
    expect(r.teamCount).toBe(2);
    expect(r.labels[0]).not.toBe(r.labels[1]);
  });
});

describe("a team needs an opponent, and scenery is nobody (point 4)", () => {
  // A moving track: its box walks 10 px a frame (a person crossing the picture).
  const walking = (id: number, start: number, len: number, color: RGB): PlayerTrack => {
    const t = track(id, start, len, 100, color);
    t.boxes = t.boxes.map((b, i) => ({ ...b, cx: 100 + 10 * i }));
    return t;
  };

  it("a still box that never holds the ball for a second is scenery; so are shorter still boxes on its spot", () => {
    const fps = 15;
    const shooter = walking(1, 0, 75, [40, 48, 67]);
    // chonyy_outdoor_45deg_2x_3shots: a fixture on the wall, 2.2 s and later 0.8 s, at the same spot.
    const wall = track(2, 3, 34, 500, [180, 113, 98]);
    const wallAgain = track(3, 48, 12, 505, [185, 115, 100]);
    // A shooter standing still at the line for 2 s holds the ball: a person.
    const stillShooter = track(4, 0, 30, 900, [40, 48, 67]);
    const owners: Array<number | null> = Array.from({ length: 75 }, (_, f) => (f < 20 ? 4 : f === 50 ? 3 : null));
    expect([...sceneryTracks([shooter, wall, wallAgain, stillShooter], owners, fps)].sort()).toEqual([2, 3]);
    // Owning the ball for a frame (a ball flying past the box in the picture) is not holding it.
    expect(TEAM_DEFAULTS.HOLDS_BALL_S * fps).toBeGreaterThan(1);
    // A still box shorter than SCENERY_MIN_S alone, away from any scenery, is left a person.
    expect([...sceneryTracks([shooter, wallAgain], owners, fps)]).toEqual([]);
    // A lone still shooter whose ball was not seen held (jbardelli_arena_shot_b): nobody else in view, a person.
    expect([...sceneryTracks([track(5, 0, 58, 975, [174, 130, 96])], [], fps)]).toEqual([]);
  });

  it("a still thing seen on and off is judged at its spot: short tracks there that add up to a second are scenery", () => {
    const fps = 15;
    const shooter = walking(1, 0, 120, [40, 48, 67]);
    // chonyy_outdoor_45deg_2x_3shots with the fine-tuned detector: the wall fixture is seen as seven
    // tracks of 0–0.8 s, a few pixels apart, none lasting SCENERY_MIN_S alone.
    const piece = (id: number, start: number, len: number, cx: number, cy: number) => {
      const t = track(id, start, len, cx, [170, 115, 98]);
      t.boxes = t.boxes.map((b) => ({ ...b, cy, w: 40, h: 90 }));
      return t;
    };
    const fixture = [piece(2, 9, 13, 498, 288), piece(3, 33, 7, 506, 288), piece(4, 48, 13, 512, 276), piece(5, 69, 10, 515, 289), piece(6, 99, 1, 504, 288)];
    expect(fixture.every((t) => (t.frames.length - 1) / fps < TEAM_DEFAULTS.SCENERY_MIN_S)).toBe(true);
    // The shooter seen for one frame in front of the fixture: a box twice its size, 0.9 of its height away.
    const passing = track(7, 81, 1, 452, [63, 56, 58]);
    passing.boxes = [{ cx: 452, cy: 351, w: 58, h: 172 }];
    expect([...sceneryTracks([shooter, ...fixture, passing], [], fps)].sort()).toEqual([2, 3, 4, 5, 6]);
    // Two short pieces that add up to less than SCENERY_MIN_S are left people.
    expect([...sceneryTracks([shooter, fixture[1], fixture[4]], [], fps)]).toEqual([]);
  });

  it("two colour clusters never on screen together are one team, not a team and an invented opponent", () => {
    const fps = 15;
    const sun: RGB = [40, 48, 67], shade: RGB = [180, 113, 98];
    const apart = clusterTeams([sun, shade], [60, 40]);
    expect(apart.teamCount).toBe(2);
    const one = requireOpponent(apart, [Array.from({ length: 60 }, (_, f) => f), Array.from({ length: 40 }, (_, f) => 70 + f)], fps);
    expect(one.teamCount).toBe(1);
    expect(one.labels).toEqual([0, 0]);
    // A game: both sides on screen together for longer than OPPONENTS_TOGETHER_S stay two teams.
    const together = requireOpponent(apart, [Array.from({ length: 60 }, (_, f) => f), Array.from({ length: 40 }, (_, f) => 10 + f)], fps);
    expect(together).toBe(apart);
  });
});

describe("identities of one person", () => {
  it("carries a lone shooter across a long absence by the shirt's colour (one player)", () => {
    const red: RGB = [200, 40, 40];
    // Out of view for 4 s (longer than the 1.5 s occlusion link) and back 10 heights away.
    const tracks = [track(1, 0, 60, 100, red), track(2, 180, 60, 1100, [195, 45, 38])];
    const teams = new Map<number, 0 | 1 | null>([[1, 0], [2, 0]]);
    const { identities } = buildIdentities(tracks, teams, none(tracks), { fps: 30 });
    expect(identities.map((i) => i.trackIds)).toEqual([[1, 2]]);
  });

  it("links across a short occlusion by appearance where position alone is too far", () => {
    const red: RGB = [200, 40, 40], blue: RGB = [30, 70, 200];
    // Red is occluded for 0.5 s and reappears 2.5 heights away; blue is on screen throughout.
    const tracks = [track(1, 0, 60, 100, red), track(2, 75, 60, 350, red), track(3, 0, 135, 900, blue)];
    const teams = new Map<number, 0 | 1 | null>([[1, 0], [2, 0], [3, 1]]);
    const { identities } = buildIdentities(tracks, teams, none(tracks), { fps: 30 });
    expect(identities.map((i) => i.trackIds.sort())).toEqual([[1, 2], [3]]);
  });

  it("keeps teammates apart in a game: same shirt, others on screen", () => {
    const red: RGB = [200, 40, 40], blue: RGB = [30, 70, 200];
    const tracks = [track(1, 0, 60, 100, red), track(2, 150, 60, 1100, red), track(3, 0, 210, 600, blue)];
    const teams = new Map<number, 0 | 1 | null>([[1, 0], [2, 0], [3, 1]]);
    const { identities } = buildIdentities(tracks, teams, none(tracks), { fps: 30 });
    expect(identities).toHaveLength(3);
  });

  it("session_type solo: everyone seen apart in time is the one player, on one side", () => {
    // Different looks (a jacket taken off) and no team from the clustering for the second.
    const tracks = [track(1, 0, 60, 100, [200, 40, 40]), track(2, 300, 60, 900, [240, 240, 240])];
    const teams = new Map<number, 0 | 1 | null>([[1, 0], [2, null]]);
    const plain = buildIdentities(tracks, teams, none(tracks), { fps: 30 });
    expect(plain.identities).toHaveLength(2);
    const solo = buildIdentities(tracks, teams, none(tracks), { fps: 30, solo: true });
    expect(solo.identities).toHaveLength(1);
    expect(solo.identities[0]).toMatchObject({ team_id: 0, valid: true });
  });
});

describe("a tracker switch does not make one person two players (point 4)", () => {
  const fps = 15;
  const dark: RGB = [40, 48, 67], light: RGB = [170, 115, 98];
  /** A track sampled as the real-footage scan samples people: every third frame. */
  const sampled = (id: number, from: number, to: number, box: (f: number) => { cx: number; cy: number; w: number; h: number }, color: (f: number) => RGB): PlayerTrack => {
    const frames = Array.from({ length: Math.floor((to - from) / 3) + 1 }, (_, i) => from + 3 * i);
    return { id, frames, boxes: frames.map(box), colors: frames.map(color), jerseyReads: [] };
  };
  const running = (f: number) => ({ cx: 100 + 10 * f, cy: 350, w: 70, h: 190 });
  const fixture = { cx: 505, cy: 288, w: 40, h: 90 };
  // chonyy_outdoor_45deg_2x_3shots with the heads before the fine-tuned detector: the shooter's track
  // follows him until he runs past a wall fixture, then stays on the fixture (a box inside his,
  // overlap enough for the tracker) while a new track takes him on.
  const switched = () => [
    sampled(1, 0, 72, (f) => (f < 45 ? running(f) : fixture), (f) => (f < 45 ? dark : light)),
    sampled(2, 45, 90, running, () => dark),
  ];
  /** The players the rules make of the tracks: scenery is nobody, the rest (one shirt) are team 0. */
  const players = (tracks: PlayerTrack[]) => {
    const scenery = sceneryTracks(tracks, [], fps);
    const people = tracks.filter((t) => !scenery.has(t.id));
    const teams = new Map<number, 0 | 1 | null>(people.map((t) => [t.id, 0]));
    return buildIdentities(people, teams, none(people), { fps }).identities.filter((i) => i.valid);
  };

  it("splits a track where its box height changes beyond MAX_HEIGHT_RATIO, and the pieces make one player", () => {
    expect(players(switched())).toHaveLength(2);
    const split = splitTrackSwitches(switched(), fps);
    // The longest piece keeps the id (and the track's jersey reads); the other gets a fresh one.
    expect(split.map((t) => [t.id, t.frames[0], t.frames[t.frames.length - 1]])).toEqual([[1, 0, 42], [3, 45, 72], [2, 45, 90]]);
    expect(split.find((t) => t.id === 3)!.boxes.every((b) => b.h === fixture.h)).toBe(true);
    const one = players(split);
    expect(one).toHaveLength(1);
    expect(one[0].trackIds.sort()).toEqual([1, 2]);
  });

  it("leaves a person's own changes of size whole: arms up for a shot, a crouch, a run towards the camera", () => {
    const h = (f: number) => (f >= 30 && f < 45 ? 190 * 1.4 : f >= 60 && f < 75 ? 190 * 0.72 : f >= 90 ? 190 + 3 * (f - 90) : 190);
    const person = sampled(1, 0, 120, (f) => ({ cx: 300, cy: 350, w: 70, h: h(f) }), () => dark);
    expect(Math.max(190 * 1.4, 190) / 190).toBeLessThan(TRACK_SPLIT_DEFAULTS.MAX_HEIGHT_RATIO);
    expect(splitTrackSwitches([person], fps)).toEqual([person]);
    // Every frame, as whole-frame detectors and densified tracks give them.
    const dense: PlayerTrack = { id: 4, frames: Array.from({ length: 121 }, (_, f) => f), boxes: [], colors: [], jerseyReads: [] };
    dense.boxes = dense.frames.map((f) => ({ cx: 300, cy: 350, w: 70, h: h(f) }));
    dense.colors = dense.frames.map(() => dark);
    expect(splitTrackSwitches([dense], fps)).toEqual([dense]);
  });
});
