// Attribution and box scores in ONE function over the same tags, so a shot's players and each
// player's stats can never disagree (spec: Session rule 4). Which roles a shot admits and what each
// adds to a box score is the contract's rule (contract/box-score.ts), the same the Worker applies
// to the shots it stores.
import { boxScoresFromShots, shotAdmits, type BoxScore, type ShotRole } from "../../../contract/box-score.ts";

export interface ShotFacts {
  made: boolean;
  is_free_throw: boolean;
  is_three_point: boolean;
}

export type TagRole = ShotRole;

export interface Tag {
  shot: number;
  role: TagRole;
  player: string;
  /** 0..1; how sure the possession logic is. */
  confidence: number;
}

export interface PlayerInfo {
  key: string;
  team_id: 0 | 1 | null;
  /** Players built from too little evidence are kept out of attribution entirely. */
  valid: boolean;
}

export const MIN_TAG_CONFIDENCE = 0.5;

/**
 * The single validity rule for tags: the player exists and is valid, the tag is confident
 * enough, the shot admits the role (the contract's `shotAdmits`: assists only on made field goals,
 * rebounds only after misses), and an assist comes from a teammate of the scorer.
 */
export function isValidTag(tag: Tag, shot: ShotFacts, players: Map<string, PlayerInfo>, scorer: string | null): boolean {
  const p = players.get(tag.player);
  if (!p || !p.valid || tag.confidence < MIN_TAG_CONFIDENCE) return false;
  if (!shotAdmits(shot, tag.role)) return false;
  if (tag.role === "assister") {
    if (!scorer || scorer === tag.player) return false;
    const s = players.get(scorer);
    if (!s || s.team_id === null || s.team_id !== p.team_id) return false;
  }
  return true;
}

export interface Attribution {
  shotPlayers: Array<{ scorer: string | null; assister: string | null; rebounder: string | null }>;
  stats: Map<string, BoxScore>;
  /** Every detected shot counts in the totals, attributed or not; assists and rebounds only when attributed. */
  totals: BoxScore;
}

export function attributeAndScore(shots: ShotFacts[], tags: Tag[], players: PlayerInfo[]): Attribution {
  const byKey = new Map(players.map((p) => [p.key, p]));
  const shotPlayers = shots.map((shot, i) => {
    const pick = (role: TagRole, scorer: string | null) =>
      tags
        .filter((t) => t.shot === i && t.role === role && isValidTag(t, shot, byKey, scorer))
        .sort((a, b) => b.confidence - a.confidence)[0]?.player ?? null;
    const scorer = pick("scorer", null);
    return { scorer, assister: pick("assister", scorer), rebounder: pick("rebounder", scorer) };
  });
  // The stats come from the accepted tags alone, by the rule the Worker applies to stored shots.
  const { players: stats, totals } = boxScoresFromShots(
    shots.map((shot, i) => ({ made: shot.made, is_free_throw: shot.is_free_throw, is_three_point: shot.is_three_point, players: shotPlayers[i] })),
    players.map((p) => p.key),
  );
  return { shotPlayers, stats, totals };
}
