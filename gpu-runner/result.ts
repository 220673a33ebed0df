// What a finished job reports: the analysis and the rendered files turned into
// the runner API's JobResult (contract/runner-api.ts) and the list of files to
// upload under the names the result uses. Every wire field is picked by name,
// so what the analysis keeps for itself (a highlight's `start_seconds`, the
// players' own box scores, the ball path) never travels: the Worker derives
// stats from the shots (contract/box-score.ts).
import { ARTIFACT_KINDS, HIGHLIGHT_PREVIEWS, HIGHLIGHT_RENDITIONS, type JobResultInput } from "../contract/runner-api";
import type { AnalysisResult } from "./analysis/types";
import type { VideoInfo } from "./media/probe";
import type { RenderedHighlight } from "./outputs/highlights";
import type { RenditionOutputs } from "./outputs/renditions";
import type { OutputFile } from "./outputs/upload";

/** The result without its `video` (which the session renditions fill in), and the files it names. */
export interface AnalysisOutputs {
  result: Pick<JobResultInput, "run_version" | "shots" | "highlights" | "players" | "artifacts">;
  files: OutputFile[];
}

/** The `media` pipeline's outputs: no analysis, nothing to report but the video. */
export const NO_ANALYSIS: AnalysisOutputs = {
  result: { run_version: 0, shots: [], highlights: [], players: [], artifacts: { actions: null, balls: null, hoops: null, clusters: null } },
  files: [],
};

/** Names each rendered file and artifact (`highlights/<key>/<rendition>.mp4`, `artifacts/<kind>.jsonl`) and builds the wire result. */
export function analysisOutputs(analysis: AnalysisResult, rendered: RenderedHighlight[]): AnalysisOutputs {
  const files: OutputFile[] = [];
  const named = (name: string, file: string | null | undefined, contentType: string): string | null => {
    if (!file) return null;
    files.push({ name, path: file, contentType });
    return name;
  };
  const byKey = new Map(rendered.map((r) => [r.key, r]));
  const highlights = analysis.highlights.map((h) => {
    const r = byKey.get(h.key);
    return {
      key: h.key,
      shot: h.shot,
      shot_index: h.shot_index,
      length_seconds: h.length_seconds,
      is_lowlight: h.is_lowlight,
      is_manual: h.is_manual,
      player: h.player,
      video: Object.fromEntries(HIGHLIGHT_RENDITIONS.map((name) => [name, named(`highlights/${h.key}/${name}.mp4`, r?.files[name], "video/mp4")])) as Record<(typeof HIGHLIGHT_RENDITIONS)[number], string | null>,
      preview: Object.fromEntries(HIGHLIGHT_PREVIEWS.map((name) => [name, named(`highlights/${h.key}/preview-${name}.jpg`, r?.preview[name], "image/jpeg")])) as Record<(typeof HIGHLIGHT_PREVIEWS)[number], string | null>,
    };
  });
  const artifacts = Object.fromEntries(
    ARTIFACT_KINDS.map((kind) => [kind, named(`artifacts/${kind}.jsonl`, analysis.artifacts[kind], "application/x-ndjson")]),
  ) as Record<(typeof ARTIFACT_KINDS)[number], string | null>;
  const shots = analysis.shots.map((s) => ({
    key: s.key,
    index: s.index,
    start_seconds: s.start_seconds,
    end_seconds: s.end_seconds,
    made: s.made,
    points: s.points,
    type: s.type,
    is_three_point: s.is_three_point,
    is_free_throw: s.is_free_throw,
    is_fouled: s.is_fouled,
    location: { shot_image_normed: s.location.shot_image_normed, shot_world_normed: s.location.shot_world_normed, hoop_image_normed: s.location.hoop_image_normed },
    court: s.court,
    excitement_score: s.excitement_score,
    players: { scorer: s.players.scorer, assister: s.players.assister, rebounder: s.players.rebounder },
    highlight: s.highlight,
  }));
  const players = analysis.players.map((p) => ({ key: p.key, name: p.name, jersey: p.jersey, user_id: p.user_id, team_id: p.team_id, metadata: p.metadata }));
  return { result: { run_version: analysis.run_version, shots, highlights, players, artifacts }, files };
}

/** The whole result: the probed video, its session renditions, and the analysis outputs. */
export function jobResult(info: Pick<VideoInfo, "durationSeconds" | "width" | "height" | "fps">, renditions: RenditionOutputs["video"], analysis: AnalysisOutputs): JobResultInput {
  return {
    run_version: analysis.result.run_version,
    video: {
      duration_seconds: info.durationSeconds,
      width: info.width,
      height: info.height,
      fps: info.fps,
      preview: renditions.preview,
      "1080p": renditions["1080p"],
      "720p": renditions["720p"],
      "360p": renditions["360p"],
    },
    artifacts: analysis.result.artifacts,
    shots: analysis.result.shots,
    highlights: analysis.result.highlights,
    players: analysis.result.players,
  };
}
