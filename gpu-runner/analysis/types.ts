// The box score and its rule are the runner API contract's (contract/box-score.ts): one definition for both sides.
export { emptyBoxScore, type BoxScore } from "../../contract/box-score.ts";
import type { BoxScore } from "../../contract/box-score.ts";
import type { CourtFoundBy, CourtTypeId } from "../../contract/court-types.ts";

export type Point = [number, number];

export interface ShotResult {
  key: string;
  index: number;
  start_seconds: number;
  end_seconds: number;
  made: boolean;
  points: number;
  type: "fieldgoal" | "freethrow";
  is_three_point: boolean;
  is_free_throw: boolean;
  is_fouled: boolean;
  location: { shot_image_normed: Point | null; shot_world_normed: Point | null; hoop_image_normed: Point | null };
  /** The court `shot_world_normed` is measured on, and how it was found; null without a court position. */
  court: { type: CourtTypeId; found_by: CourtFoundBy } | null;
  excitement_score: number;
  players: { scorer: string | null; assister: string | null; rebounder: string | null };
  highlight: string | null;
}

export interface HighlightResult {
  key: string;
  shot: string;
  shot_index: number;
  start_seconds: number;
  length_seconds: number;
  is_lowlight: boolean;
  is_manual: false;
  player: string | null;
}

export interface PlayerResult {
  key: string;
  jersey: string | null;
  name: string | null;
  user_id: string | null;
  team_id: 0 | 1 | null;
  metadata: Record<string, string>;
  stats: BoxScore;
}

export interface AnalysisResult {
  run_version: number;
  video: { duration_seconds: number; width: number; height: number; fps: number };
  shots: ShotResult[];
  highlights: HighlightResult[];
  players: PlayerResult[];
  totals: BoxScore;
  artifacts: { actions: string; balls: string; hoops: string; clusters: string };
  /** Ball path (normalised image coords) sampled over time, used to steer the vertical crop. */
  ball_path: Array<[number, number, number]>;
}

export interface Box {
  cx: number;
  cy: number;
  w: number;
  h: number;
}

/** A colour, 0–255 per channel (a shirt's median colour, a team's centroid). */
export type RGB = [number, number, number];
