// OpenAPI components of the session resource and its embedded items. The
// wire shape is produced in one place (services/session-object.ts); these
// schemas describe it and are what the route definitions reference.
import { z } from "@hono/zod-openapi";
import { BOX_SCORE_FIELDS } from "../../contract/box-score";
import { CAMERA_SETUPS, COURT_TYPES, JERSEY_READING, SESSION_TYPES } from "../../contract/job-options";
import { ARTIFACT_KINDS, HIGHLIGHT_PREVIEWS, HIGHLIGHT_RENDITIONS, SESSION_ERROR_CODES } from "../../contract/runner-api";
import { listSchema } from "../lib/lists";

const url = () => z.string().nullable().openapi({ description: "A signed, expiring URL, or null when not (yet) available" });

export const BoxScoreSchema = z
  .object(Object.fromEntries(BOX_SCORE_FIELDS.map((f) => [f, z.number().int()])) as Record<(typeof BOX_SCORE_FIELDS)[number], z.ZodNumber>)
  .openapi("BoxScore");

export const ShotSchema = z
  .object({
    id: z.string().openapi({ example: "shot_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("shot"),
    index: z.number().int().nullable(),
    start_seconds: z.number().nullable(),
    end_seconds: z.number().nullable(),
    made: z.boolean().nullable(),
    points: z.number().int().nullable(),
    type: z.string().openapi({ example: "fieldgoal" }),
    is_three_point: z.boolean().nullable(),
    is_free_throw: z.boolean(),
    is_fouled: z.boolean(),
    location: z
      .object({
        shot_image_normed: z.array(z.number()).nullable(),
        shot_world_normed: z.array(z.number()).nullable(),
        hoop_image_normed: z.array(z.number()).nullable(),
      })
      .openapi("ShotLocation"),
    excitement_score: z.number().nullable(),
    players: z
      .object({ scorer: z.string().nullable(), assister: z.string().nullable(), rebounder: z.string().nullable() })
      .openapi("ShotPlayers"),
    highlight: z.string().nullable(),
  })
  .openapi("Shot");

export const HighlightSchema = z
  .object({
    id: z.string().openapi({ example: "hl_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("highlight"),
    shot: z.string(),
    shot_index: z.number().int().nullable(),
    length_seconds: z.number(),
    is_lowlight: z.boolean(),
    is_manual: z.boolean(),
    player: z.string().nullable(),
    video: z.object(Object.fromEntries(HIGHLIGHT_RENDITIONS.map((r) => [r, url()]))).openapi("HighlightVideo"),
    preview: z.object(Object.fromEntries(HIGHLIGHT_PREVIEWS.map((r) => [r, url()]))).openapi("HighlightPreview"),
    created: z.number().int().nullable(),
  })
  .openapi("Highlight");

export const PlayerSchema = z
  .object({
    id: z.string().openapi({ example: "plr_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("player"),
    name: z.string().nullable(),
    jersey: z.string().nullable(),
    user_id: z.string().nullable(),
    team_id: z.number().int().nullable(),
    metadata: z.record(z.string(), z.string()).openapi({ description: "The roster entry's `metadata`, echoed" }),
    stats: BoxScoreSchema,
  })
  .openapi("Player");

export const HighlightListSchema = listSchema(HighlightSchema, "HighlightList", true);
export const ShotListSchema = listSchema(ShotSchema, "ShotList", true);
export const PlayerListSchema = listSchema(PlayerSchema, "PlayerList", true);

export const SESSION_VIDEO_URLS = ["url", "preview_url", "1080p", "720p", "360p"] as const;

export const SessionVideoSchema = z
  .object({
    ...Object.fromEntries(SESSION_VIDEO_URLS.map((k) => [k, url()])),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    fps: z.number().nullable(),
  })
  .openapi("SessionVideo");

export const SessionOptionsSchema = z
  .object({
    session_type: z.enum(SESSION_TYPES),
    court_type: z.enum(COURT_TYPES),
    camera_setup: z.enum(CAMERA_SETUPS),
    has_jerseys: z.boolean(),
    jerseys: z.enum(JERSEY_READING),
  })
  .openapi("SessionOptions");


export const SessionSchema = z
  .object({
    id: z.string().openapi({ example: "sess_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("session"),
    created: z.number().int(),
    status: z.enum(["queued", "processing", "processed", "failed"]),
    group: z.string(),
    source: z
      .object({
        type: z.enum(["upload", "url", "veo"]),
        url: z.string().nullable(),
        upload_id: z.string().nullable(),
      })
      .openapi("SessionSource"),
    options: SessionOptionsSchema,
    metadata: z.record(z.string(), z.string()),
    run_version: z.number().int().nullable(),
    duration_seconds: z.number().int().nullable(),
    cost_cents: z.number().int().nullable(),
    highlights: HighlightListSchema,
    shots: ShotListSchema,
    players: PlayerListSchema,
    totals: BoxScoreSchema,
    video: SessionVideoSchema,
    artifacts: z.object(Object.fromEntries(ARTIFACT_KINDS.map((k) => [k, url()]))).openapi("SessionArtifacts"),
    error: z
      .object({ code: z.enum(SESSION_ERROR_CODES), message: z.string() })
      .nullable()
      .openapi("SessionError"),
  })
  .openapi("Session");

export type Session = z.infer<typeof SessionSchema>;
export type Shot = z.infer<typeof ShotSchema>;
export type Highlight = z.infer<typeof HighlightSchema>;
export type Player = z.infer<typeof PlayerSchema>;

export const SessionListSchema = listSchema(SessionSchema, "SessionList");
