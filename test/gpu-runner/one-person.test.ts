// Issue 25, point 4: players who stay one person in a short clip.
import { describe, expect, it } from "vitest";
import { buildIdentities } from "../../gpu-runner/analysis/rules/players.ts";
import { clusterTeams, type RGB } from "../../gpu-runner/analysis/rules/teams.ts";
import type { PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";

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
