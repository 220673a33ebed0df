// The body of POST /v1/sessions. Objects are strict: an unknown key (a typo
// such as `options.sesion_type`) is refused rather than silently ignored.
import { z } from "@hono/zod-openapi";

export const METADATA_MAX_PAIRS = 20;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;
/** One day of video: far above any game, low enough to keep a typo from holding a fortune. */
export const DURATION_MAX_SECONDS = 24 * 3600;

export const MetadataSchema = z
  .record(
    z.string().min(1, "metadata keys must not be empty").max(METADATA_KEY_MAX, `metadata keys are at most ${METADATA_KEY_MAX} characters`),
    z.string().max(METADATA_VALUE_MAX, `metadata values are strings of at most ${METADATA_VALUE_MAX} characters`),
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_PAIRS, `metadata holds at most ${METADATA_MAX_PAIRS} pairs`)
  .openapi("Metadata", { description: `Up to ${METADATA_MAX_PAIRS} string pairs; keys 1–${METADATA_KEY_MAX} characters, values up to ${METADATA_VALUE_MAX}` });

export const SubmitOptionsSchema = z
  .object({
    session_type: z.enum(["solo", "1v1", "2v2", "3v3", "4v4", "5v5"]).default("5v5"),
    court_type: z.enum(["full", "half"]).default("full").openapi({ description: "`full` court or one `half`" }),
    camera_setup: z
      .enum(["fixed", "panning", "handheld"])
      .default("fixed")
      .openapi({ description: "`fixed` (tripod, whole court in view), `panning` (follows play), `handheld`" }),
    has_jerseys: z.boolean().default(true).openapi({ description: "Whether players wear numbered jerseys" }),
    jerseys: z
      .enum(["auto", "enabled", "disabled"])
      .default("auto")
      .openapi({ description: "Jersey-number reading: `auto` (when `has_jerseys`), `enabled`, `disabled`. Rosters need `auto` or `enabled`." }),
  })
  .strict()
  .openapi("SubmitOptions");

export const RosterPlayerSchema = z
  .object({
    jersey: z.string().regex(/^[0-9]{1,3}$/, "jersey is 1 to 3 digits, as a string (e.g. \"07\")"),
    name: z.string().min(1).max(100).optional(),
    user_id: z.string().min(1).max(255).optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .openapi("RosterPlayer");

export const RosterSchema = z
  .object({
    team: z.union([z.literal(0), z.literal(1)]),
    name: z.string().min(1).max(100).optional(),
    players: z
      .array(RosterPlayerSchema)
      .min(1)
      .max(30)
      .refine((ps) => new Set(ps.map((p) => p.jersey)).size === ps.length, "jersey numbers must be unique within a team"),
  })
  .strict()
  .openapi("Roster");

export const SubmitSessionBody = z
  .object({
    source: z
      .object({
        type: z
          .enum(["upload", "url", "veo", "platform"])
          .optional()
          .openapi({ description: "Derived when omitted; Veo links always become `veo`. `platform` is accepted as a synonym of the camera platform's value (`veo`)" }),
        url: z.string().max(2048).optional(),
        upload_id: z.string().max(100).optional(),
      })
      .strict()
      .openapi("SubmitSource"),
    group: z.string().max(100).optional(),
    metadata: MetadataSchema.optional(),
    duration_seconds: z.number().int().positive().max(DURATION_MAX_SECONDS).optional(),
    options: SubmitOptionsSchema.prefault({}),
    rosters: z
      .array(RosterSchema)
      .max(2)
      .refine((rs) => new Set(rs.map((r) => r.team)).size === rs.length, "each team (0, 1) appears at most once")
      .optional(),
  })
  .strict()
  .openapi("SubmitSession");

export type SubmitSessionInput = z.infer<typeof SubmitSessionBody>;
export type SubmitOptions = z.infer<typeof SubmitOptionsSchema>;
export type Roster = z.infer<typeof RosterSchema>;
