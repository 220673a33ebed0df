import { describe, expect, it } from "vitest";
import { attributeAndScore, type PlayerInfo, type ShotFacts, type Tag } from "../../gpu-runner/analysis/rules/boxscore.ts";
import { clusterTeams } from "../../gpu-runner/analysis/rules/teams.ts";
import { applyRosters, buildIdentities, voteJersey } from "../../gpu-runner/analysis/rules/players.ts";
import type { PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";
import { excitementScore } from "../../gpu-runner/analysis/rules/excitement.ts";

const players: PlayerInfo[] = [
  { key: "a", team_id: 0, valid: true },
  { key: "b", team_id: 0, valid: true },
  { key: "c", team_id: 1, valid: true },
  { key: "ghost", team_id: 1, valid: false },
];

describe("attribution and box scores", () => {
  it("credits the same tags in the shots and in the player stats", () => {
    const shots: ShotFacts[] = [
      { made: true, is_free_throw: false, is_three_point: true }, // a scores, b assists
      { made: false, is_free_throw: false, is_three_point: false }, // c misses, a rebounds
      { made: true, is_free_throw: true, is_three_point: false }, // c free throw, "assist" must be ignored
      { made: true, is_free_throw: false, is_three_point: false }, // ghost scores: invalid → unattributed
      { made: true, is_free_throw: false, is_three_point: false }, // a scores, c "assists" (other team) → ignored
    ];
    const tags: Tag[] = [
      { shot: 0, role: "scorer", player: "a", confidence: 0.9 },
      { shot: 0, role: "assister", player: "b", confidence: 0.8 },
      { shot: 0, role: "rebounder", player: "c", confidence: 0.9 }, // made shot: no rebound
      { shot: 1, role: "scorer", player: "c", confidence: 0.9 },
      { shot: 1, role: "rebounder", player: "a", confidence: 0.8 },
      { shot: 2, role: "scorer", player: "c", confidence: 0.9 },
      { shot: 2, role: "assister", player: "ghost", confidence: 0.9 },
      { shot: 3, role: "scorer", player: "ghost", confidence: 0.9 },
      { shot: 4, role: "scorer", player: "a", confidence: 0.9 },
      { shot: 4, role: "assister", player: "c", confidence: 0.9 },
      { shot: 4, role: "assister", player: "b", confidence: 0.3 }, // too unsure
    ];
    const r = attributeAndScore(shots, tags, players);
    expect(r.shotPlayers).toEqual([
      { scorer: "a", assister: "b", rebounder: null },
      { scorer: "c", assister: null, rebounder: "a" },
      { scorer: "c", assister: null, rebounder: null },
      { scorer: null, assister: null, rebounder: null },
      { scorer: "a", assister: null, rebounder: null },
    ]);
    expect(r.stats.get("a")).toEqual({ points: 5, fg_2pt_att: 1, fg_2pt_make: 1, fg_3pt_att: 1, fg_3pt_make: 1, ft_att: 0, ft_make: 0, assist: 0, rebound: 1 });
    expect(r.stats.get("c")).toMatchObject({ points: 1, fg_2pt_att: 1, fg_2pt_make: 0, ft_att: 1, ft_make: 1 });
    expect(r.stats.get("ghost")).toMatchObject({ points: 0, assist: 0 });
    // Totals count every shot, attributed or not.
    expect(r.totals).toMatchObject({ points: 8, fg_2pt_att: 3, fg_2pt_make: 2, fg_3pt_att: 1, ft_att: 1, assist: 1, rebound: 1 });
    // Invariant: each player's points equal the points of the shots naming them as scorer.
    for (const p of players) {
      const pts = shots.reduce((s, shot, i) => s + (r.shotPlayers[i].scorer === p.key ? (shot.made ? (shot.is_free_throw ? 1 : shot.is_three_point ? 3 : 2) : 0) : 0), 0);
      expect(r.stats.get(p.key)!.points).toBe(pts);
      expect(r.stats.get(p.key)!.assist).toBe(r.shotPlayers.filter((s) => s.assister === p.key).length);
    }
  });

  it("scores excitement by the documented formula", () => {
    expect(excitementScore({ made: true, is_free_throw: false, is_three_point: true, is_fouled: false, assisted: true, distance_m: 8 })).toBeCloseTo(0.85, 6);
    expect(excitementScore({ made: false, is_free_throw: true, is_three_point: false, is_fouled: false, assisted: false, distance_m: null })).toBeCloseTo(0.05, 6);
    expect(excitementScore({ made: true, is_free_throw: false, is_three_point: false, is_fouled: true, assisted: true, distance_m: 3 })).toBeCloseTo(0.8, 6);
  });
});

describe("teams and players", () => {
  it("splits jersey colours into two teams and leaves outliers out", () => {
    const blue: [number, number, number] = [30, 70, 200], yellow: [number, number, number] = [240, 200, 30];
    const r = clusterTeams([blue, [35, 75, 190], yellow, [230, 195, 40], [128, 128, 128]]);
    expect(r.labels[0]).toBe(r.labels[1]);
    expect(r.labels[2]).toBe(r.labels[3]);
    expect(r.labels[0]).not.toBe(r.labels[2]);
    expect(r.labels[4]).toBeNull();
  });

  it("is not pulled apart by a few short outlier tracks", () => {
    const blue: [number, number, number] = [30, 69, 198], purple: [number, number, number] = [110, 45, 148];
    const colors: Array<[number, number, number]> = [blue, blue, purple, purple, [171, 125, 151], [179, 133, 101]];
    const r = clusterTeams(colors, [800, 200, 780, 250, 40, 25]);
    expect(r.labels[0]).toBe(r.labels[1]);
    expect(r.labels[2]).toBe(r.labels[3]);
    expect(r.labels[0]).not.toBe(r.labels[2]);
    expect(r.labels[4]).toBeNull();
    expect(r.labels[5]).toBeNull();
  });

  it("votes jersey numbers", () => {
    const rd = (text: string, confidence = 0.9) => ({ text, confidence });
    expect(voteJersey([rd("23"), rd("23"), rd("28")])).toBe("23");
    expect(voteJersey([rd("23")])).toBeNull();
    expect(voteJersey([rd("23"), rd("23"), rd("8"), rd("8"), rd("7")])).toBeNull();
    expect(voteJersey([rd("23", 0.2), rd("23", 0.2), rd("4")])).toBeNull();
  });

  it("joins tracks of one player by number and across short gaps, and applies rosters", () => {
    const track = (id: number, start: number, len: number, cx: number): PlayerTrack => ({
      id,
      frames: Array.from({ length: len }, (_, i) => start + i),
      boxes: Array.from({ length: len }, () => ({ cx, cy: 100, w: 20, h: 60 })),
      colors: [],
      jerseyReads: [],
    });
    const tracks = [track(0, 0, 60, 100), track(1, 70, 60, 110), track(2, 0, 60, 300), track(3, 200, 60, 500), track(4, 0, 5, 50)];
    const teams = new Map<number, 0 | 1 | null>([[0, 0], [1, 0], [2, 1], [3, 1], [4, 1]]);
    const jerseys = new Map<number, string | null>([[0, "23"], [1, null], [2, "7"], [3, "7"], [4, null]]);
    const { identities, trackToKey } = buildIdentities(tracks, teams, jerseys, { fps: 30 });
    expect(trackToKey.get(0)).toBe(trackToKey.get(1)); // gap of 10 frames, same place
    expect(trackToKey.get(2)).toBe(trackToKey.get(3)); // same team and number, far apart in time
    const short = identities.find((p) => p.trackIds.includes(4))!;
    expect(short.valid).toBe(false);
    // Roster team 0 holds #7 → our team 1 is the caller's team 0: ids are renumbered.
    applyRosters(identities, [{ team: 0, players: [{ jersey: "7", name: "Ana", user_id: "u-7", metadata: { pos: "G" } }] }]);
    const ana = identities.find((p) => p.jersey === "7")!;
    expect(ana).toMatchObject({ name: "Ana", user_id: "u-7", team_id: 0, metadata: { pos: "G", user_id: "u-7" } });
    expect(identities.find((p) => p.jersey === "23")!.team_id).toBe(1);
  });

  it("never merges two people seen at the same time, even with the same read number", () => {
    const track = (id: number, start: number, len: number, cx: number): PlayerTrack => ({
      id,
      frames: Array.from({ length: len }, (_, i) => start + i),
      boxes: Array.from({ length: len }, () => ({ cx, cy: 100, w: 20, h: 60 })),
      colors: [],
      jerseyReads: [],
    });
    // Both read as "40" (one is really a 42), on screen together: two players, the shorter loses the number.
    const tracks = [track(0, 0, 300, 100), track(1, 100, 100, 400)];
    const { identities, trackToKey } = buildIdentities(tracks, new Map([[0, 0], [1, 0]]), new Map([[0, "40"], [1, "40"]]), { fps: 30 });
    expect(trackToKey.get(0)).not.toBe(trackToKey.get(1));
    expect(identities.find((p) => p.trackIds.includes(0))!.jersey).toBe("40");
    expect(identities.find((p) => p.trackIds.includes(1))!.jersey).toBeNull();
  });
});
