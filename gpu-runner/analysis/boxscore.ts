// Attribution and box scores in ONE function over the same tags, so a shot's players and each
// player's stats can never disagree (spec: Session rule 4).
import { emptyBoxScore, type BoxScore } from "./types.ts";

export interface ShotFacts {
  made: boolean;
  is_free_throw: boolean;
  is_three_point: boolean;
}

export type TagRole = "scorer" | "assister" | "rebounder";

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
 * enough, and the role makes sense for the shot (assists only on made field goals by a teammate,
 * rebounds only after misses).
 */
export function isValidTag(tag: Tag, shot: ShotFacts, players: Map<string, PlayerInfo>, scorer: string | null): boolean {
  const p = players.get(tag.player);
  if (!p || !p.valid || tag.confidence < MIN_TAG_CONFIDENCE) return false;
  if (tag.role === "assister") {
    if (!shot.made || shot.is_free_throw || !scorer || scorer === tag.player) return false;
    const s = players.get(scorer);
    if (!s || s.team_id === null || s.team_id !== p.team_id) return false;
  }
  if (tag.role === "rebounder" && shot.made) return false;
  return true;
}

export function shotPoints(s: ShotFacts): number {
  if (!s.made) return 0;
  return s.is_free_throw ? 1 : s.is_three_point ? 3 : 2;
}

function addShot(b: BoxScore, s: ShotFacts) {
  const pts = shotPoints(s);
  b.points += pts;
  if (s.is_free_throw) { b.ft_att++; if (s.made) b.ft_make++; }
  else if (s.is_three_point) { b.fg_3pt_att++; if (s.made) b.fg_3pt_make++; }
  else { b.fg_2pt_att++; if (s.made) b.fg_2pt_make++; }
}

export interface Attribution {
  shotPlayers: Array<{ scorer: string | null; assister: string | null; rebounder: string | null }>;
  stats: Map<string, BoxScore>;
  /** Every detected shot counts in the totals, attributed or not; assists and rebounds only when attributed. */
  totals: BoxScore;
}

export function attributeAndScore(shots: ShotFacts[], tags: Tag[], players: PlayerInfo[]): Attribution {
  const byKey = new Map(players.map((p) => [p.key, p]));
  const stats = new Map(players.map((p) => [p.key, emptyBoxScore()]));
  const totals = emptyBoxScore();
  const shotPlayers = shots.map((shot, i) => {
    const pick = (role: TagRole, scorer: string | null) =>
      tags
        .filter((t) => t.shot === i && t.role === role && isValidTag(t, shot, byKey, scorer))
        .sort((a, b) => b.confidence - a.confidence)[0]?.player ?? null;
    const scorer = pick("scorer", null);
    const assister = pick("assister", scorer);
    const rebounder = pick("rebounder", scorer);
    addShot(totals, shot);
    if (scorer) addShot(stats.get(scorer)!, shot);
    if (assister) { stats.get(assister)!.assist++; totals.assist++; }
    if (rebounder) { stats.get(rebounder)!.rebound++; totals.rebound++; }
    return { scorer, assister, rebounder };
  });
  return { shotPlayers, stats, totals };
}
