// Property tests of the one box-score rule (contract/box-score.ts) and of the runner's attribution
// built on it: whatever the shots and tags, a player's stats are exactly what the shots that name
// them say (spec, Session rule 4). The Worker's side, through storage and the API, is
// test/worker/runner-contract.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addShot, boxScoresFromShots, emptyBoxScore, SHOT_ROLES, shotAdmits, type AttributedShot, type ShotRole } from "../../contract/box-score";
import { attributeAndScore, type PlayerInfo, type ShotFacts, type Tag } from "../../gpu-runner/analysis/rules/boxscore";
import { lineFromShots, specPoints, type ShotAsSeen } from "../support/box-score-truth";

const PLAYER_KEYS = ["p0", "p1", "p2", "p3", "p4", "p5"];

const shotFacts = fc.record({ made: fc.boolean(), is_free_throw: fc.boolean(), is_three_point: fc.boolean() }).map((s) => ({ ...s, is_three_point: s.is_three_point && !s.is_free_throw }));

/** A shot as the Worker receives it: unknown results too, points as the spec gives them or left out. */
const wireShot = fc
  .record({
    made: fc.constantFrom(true, false, null),
    is_free_throw: fc.boolean(),
    is_three_point: fc.constantFrom(true, false, null),
    pointsGiven: fc.boolean(),
    scorer: fc.option(fc.constantFrom(...PLAYER_KEYS)),
    assister: fc.option(fc.constantFrom(...PLAYER_KEYS)),
    rebounder: fc.option(fc.constantFrom(...PLAYER_KEYS)),
  })
  .map(({ pointsGiven, scorer, assister, rebounder, ...s }) => ({ ...s, points: pointsGiven ? specPoints(s) : null, players: { scorer, assister, rebounder } }));

/** Drops the roles a shot does not admit: what the runner sends and the Worker accepts. */
const admissible = <S extends AttributedShot>(shot: S): S => ({
  ...shot,
  players: Object.fromEntries(SHOT_ROLES.map((r) => [r, shotAdmits(shot, r) ? shot.players[r] : null])) as S["players"],
});

/** The shot as the API shows it: points filled in as the spec says when the runner left them out. */
const asSeen = (s: AttributedShot): ShotAsSeen => ({ ...s, points: s.points ?? specPoints(s) });

describe("the box-score rule", () => {
  it("gives every player exactly the line the shots naming them say, and totals every shot", () => {
    fc.assert(
      fc.property(fc.array(wireShot.map(admissible), { maxLength: 40 }), (shots) => {
        const { players, totals } = boxScoresFromShots(shots, PLAYER_KEYS);
        for (const key of PLAYER_KEYS) expect(players.get(key)).toEqual(lineFromShots(key, shots.map(asSeen)));
        const everyone = shots.map((s) => asSeen({ ...s, players: { scorer: "all", assister: s.players.assister && "all", rebounder: s.players.rebounder && "all" } }));
        expect(totals).toEqual(lineFromShots("all", everyone));
      }),
      { numRuns: 300 },
    );
  });

  it("credits a role exactly when the shot admits it, so a shot naming anything else would disagree with the stats", () => {
    fc.assert(
      fc.property(wireShot, fc.constantFrom<ShotRole>(...SHOT_ROLES), (shot, role) => {
        const box = emptyBoxScore();
        addShot(box, shot, role);
        if (role === "scorer") {
          // Every shot is an attempt of its scorer's, made, missed or unknown.
          expect(shotAdmits(shot, role)).toBe(true);
          expect(box.fg_2pt_att + box.fg_3pt_att + box.ft_att).toBe(1);
        } else {
          expect(box.assist + box.rebound > 0).toBe(shotAdmits(shot, role));
        }
      }),
      { numRuns: 300 },
    );
    expect(shotAdmits({ made: true, is_free_throw: true, is_three_point: false }, "assister")).toBe(false);
    expect(shotAdmits({ made: null, is_free_throw: false, is_three_point: null }, "rebounder")).toBe(false);
  });
});

describe("the runner's attribution (gpu-runner/analysis/rules/boxscore.ts)", () => {
  const players = fc.uniqueArray(
    fc.record({ key: fc.constantFrom(...PLAYER_KEYS), team_id: fc.constantFrom<0 | 1 | null>(0, 1, null), valid: fc.boolean() }),
    { selector: (p) => p.key, maxLength: PLAYER_KEYS.length },
  );
  const tags = (shotCount: number) =>
    fc.array(
      fc.record({
        shot: fc.integer({ min: 0, max: Math.max(0, shotCount - 1) }),
        role: fc.constantFrom<ShotRole>(...SHOT_ROLES),
        player: fc.constantFrom(...PLAYER_KEYS, "nobody"),
        confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 60 },
    );
  const game = fc.array(shotFacts, { maxLength: 25 }).chain((shots) => fc.tuple(fc.constant(shots), tags(shots.length), players));

  it("whatever the tags, each player's stats are the shots attributed to them, and only valid players in admitted roles are named", () => {
    fc.assert(
      fc.property(game, ([shots, tagList, playerList]: [ShotFacts[], Tag[], PlayerInfo[]]) => {
        const result = attributeAndScore(shots, tagList, playerList);
        const seen = shots.map((s, i) => ({ ...s, points: specPoints(s), players: result.shotPlayers[i] }));
        const valid = new Set(playerList.filter((p) => p.valid).map((p) => p.key));
        seen.forEach((shot) => {
          for (const role of SHOT_ROLES) {
            const named = shot.players[role];
            if (named === null) continue;
            expect(valid.has(named)).toBe(true);
            expect(shotAdmits(shot, role)).toBe(true);
          }
        });
        for (const p of playerList) expect(result.stats.get(p.key)).toEqual(lineFromShots(p.key, seen));
        // And the Worker, deriving stats from the same attributed shots, gets the same lines and totals.
        const derived = boxScoresFromShots(seen, playerList.map((p) => p.key));
        expect(derived.players).toEqual(result.stats);
        expect(derived.totals).toEqual(result.totals);
      }),
      { numRuns: 300 },
    );
  });
});
