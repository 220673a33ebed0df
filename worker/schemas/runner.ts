// Wire shapes of the runner API (/runner/v1). Output files are named by the
// runner (`renditions/720p.mp4`, `highlights/h3/default.mp4`, …) and uploaded
// through tus targets under `sessions/<id>/outputs/<name>`; the result refers
// to them by name.
import { z } from "@hono/zod-openapi";

export const ERROR_CODES_FOR_SESSIONS = [
  "no_shots",
  "no_hoops",
  "no_court",
  "video_too_large",
  "source_invalid",
  "source_unavailable",
  "timeout",
  "unknown",
] as const;

/** Relative output name: letters, digits, `._-/`, no `..`, no leading slash. */
export const OutputName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/, "a relative path of letters, digits, '.', '_', '-' and '/'");

const nullableOutput = OutputName.nullable().default(null);

export const BoxScoreInput = z.object({
  points: z.number().int().min(0),
  fg_2pt_att: z.number().int().min(0),
  fg_2pt_make: z.number().int().min(0),
  fg_3pt_att: z.number().int().min(0),
  fg_3pt_make: z.number().int().min(0),
  ft_att: z.number().int().min(0),
  ft_make: z.number().int().min(0),
  assist: z.number().int().min(0),
  rebound: z.number().int().min(0),
});

const Point = z.array(z.number().min(0).max(1)).length(2).nullable().default(null);

export const ShotResult = z.object({
  key: z.string().min(1).max(100),
  index: z.number().int().min(0).nullable().default(null),
  start_seconds: z.number().min(0).nullable().default(null),
  end_seconds: z.number().min(0).nullable().default(null),
  made: z.boolean().nullable().default(null),
  points: z.number().int().min(0).max(3).nullable().default(null),
  type: z.enum(["fieldgoal", "freethrow"]).default("fieldgoal"),
  is_three_point: z.boolean().nullable().default(null),
  is_free_throw: z.boolean().default(false),
  is_fouled: z.boolean().default(false),
  location: z
    .object({ shot_image_normed: Point, shot_world_normed: Point, hoop_image_normed: Point })
    .default({ shot_image_normed: null, shot_world_normed: null, hoop_image_normed: null }),
  excitement_score: z.number().nullable().default(null),
  players: z
    .object({
      scorer: z.string().nullable().default(null),
      assister: z.string().nullable().default(null),
      rebounder: z.string().nullable().default(null),
    })
    .default({ scorer: null, assister: null, rebounder: null }),
  highlight: z.string().nullable().default(null),
});

const HIGHLIGHT_RENDITIONS = ["default", "horizontal", "1080p", "720p", "480p", "360p", "240p", "144p"] as const;

export const HighlightResult = z.object({
  key: z.string().min(1).max(100),
  shot: z.string().min(1).max(100),
  shot_index: z.number().int().min(0).nullable().default(null),
  length_seconds: z.number().min(0),
  is_lowlight: z.boolean().default(false),
  is_manual: z.boolean().default(false),
  player: z.string().nullable().default(null),
  video: z.object(Object.fromEntries(HIGHLIGHT_RENDITIONS.map((r) => [r, nullableOutput])) as Record<(typeof HIGHLIGHT_RENDITIONS)[number], typeof nullableOutput>),
  preview: z.object({ default: nullableOutput, horizontal: nullableOutput }),
});

export const PlayerResult = z.object({
  key: z.string().min(1).max(100),
  name: z.string().max(200).nullable().default(null),
  jersey: z.string().max(10).nullable().default(null),
  user_id: z.string().max(200).nullable().default(null),
  team_id: z.number().int().nullable().default(null),
  metadata: z.record(z.string(), z.string()).default({}),
});

export const JobResult = z
  .object({
    run_version: z.number().int().min(0),
    video: z.object({
      duration_seconds: z.number().positive(),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      fps: z.number().positive(),
      preview: nullableOutput,
      "1080p": nullableOutput,
      "720p": nullableOutput,
      "360p": nullableOutput,
    }),
    artifacts: z.object({ actions: nullableOutput, balls: nullableOutput, hoops: nullableOutput, clusters: nullableOutput }),
    shots: z.array(ShotResult).max(5000).default([]),
    highlights: z.array(HighlightResult).max(5000).default([]),
    players: z.array(PlayerResult).max(500).default([]),
  })
  .openapi("JobResult");
export type JobResult = z.infer<typeof JobResult>;

export const ClaimedJob = z
  .object({
    id: z.string(),
    session: z.string(),
    lease: z.object({ id: z.string(), expires_at: z.number().int() }),
    attempt: z.number().int(),
    source: z.object({ type: z.enum(["upload", "url", "veo"]), download_url: z.string() }),
    options: z.record(z.string(), z.unknown()),
    rosters: z.unknown().nullable(),
  })
  .openapi("ClaimedJob");
export type ClaimedJob = z.infer<typeof ClaimedJob>;
