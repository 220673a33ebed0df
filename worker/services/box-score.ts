// Box scores are derived, never trusted from the runner: one function walks
// the attributed shots and produces every player's stats and the team totals,
// so a player's stats always agree with the shots that name them.
export interface BoxScore {
  points: number;
  fg_2pt_att: number;
  fg_2pt_make: number;
  fg_3pt_att: number;
  fg_3pt_make: number;
  ft_att: number;
  ft_make: number;
  assist: number;
  rebound: number;
}

export interface AttributedShot {
  made: boolean | null;
  points: number | null;
  is_three_point: boolean | null;
  is_free_throw: boolean;
  players: { scorer: string | null; assister: string | null; rebounder: string | null };
}

export const emptyBoxScore = (): BoxScore => ({
  points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0,
});

function addShot(box: BoxScore, shot: AttributedShot, role: "scorer" | "assister" | "rebounder") {
  if (role === "assister") {
    if (shot.made) box.assist += 1;
    return;
  }
  if (role === "rebounder") {
    if (shot.made === false) box.rebound += 1;
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
  if (made) box.points += shot.points ?? (shot.is_free_throw ? 1 : shot.is_three_point ? 3 : 2);
}

/**
 * Per-player stats and team totals from the same shots. Team totals count
 * every shot (also those whose scorer is unknown), and assists and rebounds
 * credited to someone.
 */
export function boxScoresFromShots(shots: AttributedShot[], playerIds: string[]): { players: Map<string, BoxScore>; totals: BoxScore } {
  const players = new Map(playerIds.map((id) => [id, emptyBoxScore()]));
  const totals = emptyBoxScore();
  for (const shot of shots) {
    addShot(totals, shot, "scorer");
    for (const role of ["scorer", "assister", "rebounder"] as const) {
      const id = shot.players[role];
      const box = id ? players.get(id) : undefined;
      if (!box) continue;
      addShot(box, shot, role);
      if (role !== "scorer") addShot(totals, shot, role);
    }
  }
  return { players, totals };
}
