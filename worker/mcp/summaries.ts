// What the assistant tools return: the API's objects, trimmed the way SPEC section 12 lists, so an
// assistant's context holds what a conversation needs (counts and links, not every embedded item).
import type { Highlight, Player, Session, Shot } from "../schemas/sessions";

export interface List<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  total_count: number;
}

/**
 * A session without its embedded lists and team totals: `shot_count` and `highlight_count` say
 * how much there is (list_shots, list_highlights and list_players page through it) and `hub_url`
 * is a signed, expiring link to the session's hub page (the same link `POST
 * /v1/sessions/{id}/share_links` makes), for the assistant to hand to the user.
 */
export type SessionSummary = Omit<Session, "highlights" | "shots" | "players" | "totals"> & {
  shot_count: number;
  highlight_count: number;
  hub_url: string;
};

export function summarizeSession(session: Session, hubUrl: string): SessionSummary {
  const { highlights, shots, players: _players, totals: _totals, ...rest } = session;
  return { ...rest, shot_count: shots.total_count, highlight_count: highlights.total_count, hub_url: hubUrl };
}

/** A shot with `court_location` (the shooter's spot on the half court, 0..1) instead of `location`, and no `excitement_score`. */
export type ShotSummary = Omit<Shot, "location" | "excitement_score"> & { court_location: number[] | null };

export function summarizeShot(shot: Shot): ShotSummary {
  const { location, excitement_score: _score, ...rest } = shot;
  return { ...rest, court_location: location.shot_world_normed };
}

/** A highlight with only the `default` (vertical) and `horizontal` cuts and the default preview image. */
export type HighlightSummary = Omit<Highlight, "video" | "preview"> & {
  video: { default: string | null; horizontal: string | null };
  preview: string | null;
};

export function summarizeHighlight(highlight: Highlight): HighlightSummary {
  const { video, preview, ...rest } = highlight;
  return { ...rest, video: { default: video.default ?? null, horizontal: video.horizontal ?? null }, preview: preview.default ?? null };
}

/** A player without `stats`. */
export type PlayerSummary = Omit<Player, "stats">;

export function summarizePlayer(player: Player): PlayerSummary {
  const { stats: _stats, ...rest } = player;
  return rest;
}

export function mapList<T, U>(list: List<T>, fn: (item: T, index: number) => U): List<U> {
  return { object: "list", data: list.data.map((item, i) => fn(item, i)), has_more: list.has_more, total_count: list.total_count };
}
