// The box-score rule, in one place for both sides: the runner's attribution
// (gpu-runner/analysis/rules/boxscore.ts) and the Worker, which derives every
// player's stats and the team totals from the stored shots when a job
// completes (worker/services/jobs.ts). Stats are a function of the attributed
// shots and nothing else, and a shot may only name a player in a role that
// counts, so a shot's `players` and a player's `stats` always agree (spec,
// Session rule 4).

export const BOX_SCORE_FIELDS = ["points", "fg_2pt_att", "fg_2pt_make", "fg_3pt_att", "fg_3pt_make", "ft_att", "ft_make", "assist", "rebound"] as const;

/** The spec's BoxScore: all integers. */
export type BoxScore = Record<(typeof BOX_SCORE_FIELDS)[number], number>;

export const emptyBoxScore = (): BoxScore => ({
  points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0,
});

export type ShotRole = "scorer" | "assister" | "rebounder";
export const SHOT_ROLES: readonly ShotRole[] = ["scorer", "assister", "rebounder"];

/** What the box score reads of a shot. `made: null` is a shot whose result is unknown: an attempt, never a make. */
export interface ScoredShot {
  made: boolean | null;
  /** Points as reported; when absent, worth 1 for a free throw, 3 beyond the arc, else 2 (0 when missed). */
  points?: number | null;
  is_three_point: boolean | null;
  is_free_throw: boolean;
}

export interface AttributedShot extends ScoredShot {
  players: Record<ShotRole, string | null>;
}

/**
 * Whether a shot can credit someone in `role`: every shot has a scorer (an attempt), an assist
 * needs a made field goal, a rebound a miss. A role a shot does not admit is never attributed (the
 * runner drops such tags; the Worker refuses a result that names one), because no stat would
 * count it.
 */
export function shotAdmits(shot: ScoredShot, role: ShotRole): boolean {
  if (role === "assister") return shot.made === true && !shot.is_free_throw;
  if (role === "rebounder") return shot.made === false;
  return true;
}

/** The points a made shot is worth when it does not say: 1 for a free throw, 3 beyond the arc, else 2; 0 when missed. */
export function shotPoints(shot: ScoredShot): number {
  if (shot.made !== true) return 0;
  return shot.points ?? (shot.is_free_throw ? 1 : shot.is_three_point ? 3 : 2);
}

/** Adds what one shot gives `box` for a player in `role` (the scorer's line is the shot's own: attempt, make, points). */
export function addShot(box: BoxScore, shot: ScoredShot, role: ShotRole): void {
  if (!shotAdmits(shot, role)) return;
  if (role === "assister") {
    box.assist += 1;
    return;
  }
  if (role === "rebounder") {
    box.rebound += 1;
    return;
  }
  const made = shot.made === true;
  if (shot.is_free_throw) {
    box.ft_att += 1;
    if (made) box.ft_make += 1;
  } else if (shot.is_three_point) {
    box.fg_3pt_att += 1;
    if (made) box.fg_3pt_make += 1;
  } else {
    box.fg_2pt_att += 1;
    if (made) box.fg_2pt_make += 1;
  }
  box.points += shotPoints(shot);
}

/**
 * Every player's stats and the team totals from the same shots. Totals count every shot (also
 * those whose scorer is unknown) and the assists and rebounds credited to one of `playerIds`, so
 * they can exceed the sum of the player lines when a scorer is unknown. A role naming someone
 * outside `playerIds` credits nobody.
 */
export function boxScoresFromShots(shots: readonly AttributedShot[], playerIds: readonly string[]): { players: Map<string, BoxScore>; totals: BoxScore } {
  const players = new Map(playerIds.map((id) => [id, emptyBoxScore()]));
  const totals = emptyBoxScore();
  for (const shot of shots) {
    addShot(totals, shot, "scorer");
    for (const role of SHOT_ROLES) {
      const id = shot.players[role];
      const box = id === null ? undefined : players.get(id);
      if (!box) continue;
      addShot(box, shot, role);
      if (role !== "scorer") addShot(totals, shot, role);
    }
  }
  return { players, totals };
}
