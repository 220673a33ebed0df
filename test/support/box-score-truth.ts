// The spec's meaning of a box score, written out plainly and independently of
// contract/box-score.ts, so the property tests compare the rule's output with
// what the shots say rather than with the rule itself. A player's line counts,
// over the shots that name them: as scorer, an attempt of the shot's kind (and
// a make, and its points, when made); as assister, an assist; as rebounder, a
// rebound.
import type { BoxScore } from "../../contract/box-score";

export interface ShotAsSeen {
  made: boolean | null;
  points: number | null;
  is_three_point: boolean | null;
  is_free_throw: boolean;
  players: { scorer: string | null; assister: string | null; rebounder: string | null };
}

export function lineFromShots(player: string, shots: readonly ShotAsSeen[]): BoxScore {
  const scored = shots.filter((s) => s.players.scorer === player);
  const count = (pick: (s: ShotAsSeen) => boolean) => scored.filter(pick).length;
  const fieldGoal2 = (s: ShotAsSeen) => !s.is_free_throw && !s.is_three_point;
  const fieldGoal3 = (s: ShotAsSeen) => !s.is_free_throw && s.is_three_point === true;
  return {
    points: scored.reduce((sum, s) => sum + (s.made === true ? (s.points ?? 0) : 0), 0),
    fg_2pt_att: count(fieldGoal2),
    fg_2pt_make: count((s) => fieldGoal2(s) && s.made === true),
    fg_3pt_att: count(fieldGoal3),
    fg_3pt_make: count((s) => fieldGoal3(s) && s.made === true),
    ft_att: count((s) => s.is_free_throw),
    ft_make: count((s) => s.is_free_throw && s.made === true),
    assist: shots.filter((s) => s.players.assister === player).length,
    rebound: shots.filter((s) => s.players.rebounder === player).length,
  };
}

/** The points a shot is worth by the spec: 0 when missed; 1 for a free throw; 3 beyond the arc; else 2. */
export function specPoints(shot: { made: boolean | null; is_free_throw: boolean; is_three_point: boolean | null }): number | null {
  if (shot.made === null) return null;
  if (!shot.made) return 0;
  return shot.is_free_throw ? 1 : shot.is_three_point ? 3 : 2;
}
