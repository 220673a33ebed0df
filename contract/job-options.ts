// What a customer asks of one analysis: the submit options and the rosters, from POST /v1/sessions
// to the runner's analyzeGame with one type. The Worker validates the submit body with the strict
// schemas (an unknown key, such as a typo, is refused); a claimed job carries the same fields with
// the lenient ones, so a runner built before a new field was added still reads its jobs.
// `meta({id})` names the OpenAPI components of the public API.
import { z } from "zod";

export const METADATA_MAX_PAIRS = 20;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

export const MetadataSchema = z
  .record(
    z.string().min(1, "metadata keys must not be empty").max(METADATA_KEY_MAX, `metadata keys are at most ${METADATA_KEY_MAX} characters`),
    z.string().max(METADATA_VALUE_MAX, `metadata values are strings of at most ${METADATA_VALUE_MAX} characters`),
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_PAIRS, `metadata holds at most ${METADATA_MAX_PAIRS} pairs`)
  .meta({ id: "Metadata", description: `Up to ${METADATA_MAX_PAIRS} string pairs; keys 1–${METADATA_KEY_MAX} characters, values up to ${METADATA_VALUE_MAX}` });

/** Said of every option the analysis does not act on yet (docs/sessions.md): recorded only. */
const RECORDED_ONLY = "Recorded only: validated, stored, echoed and part of the same-link dedupe key; the current analysis does not act on it.";

/** The values of each enumerated option: the submit body and the session object's `options` list them from here. */
export const SESSION_TYPES = ["solo", "1v1", "2v2", "3v3", "4v4", "5v5"] as const;
export const COURT_TYPES = ["full", "half"] as const;
export const CAMERA_SETUPS = ["fixed", "panning", "handheld"] as const;
export type CameraSetup = (typeof CAMERA_SETUPS)[number];
export const JERSEY_READING = ["auto", "enabled", "disabled"] as const;

const submitOptionFields = {
  session_type: z.enum(SESSION_TYPES).default("5v5").meta({ description: "Players per side. `solo` acts: the analysis takes everyone seen apart in time as the one player, on one side. The other values are validated, stored, echoed and part of the same-link dedupe key only." }),
  court_type: z
    .enum(COURT_TYPES)
    .default("full")
    .meta({ description: `\`full\` court or one \`half\`. ${RECORDED_ONLY} Shots are always placed on the half court of the hoop they were taken at, from that half's painted lines, which a half-court game on a full court shares.` }),
  camera_setup: z
    .enum(CAMERA_SETUPS)
    .default("fixed")
    .meta({
      description:
        "`fixed` (tripod, whole court in view), `panning` (follows play), `handheld`. `fixed` places every shot with one court registration for the whole video, and only while the pictures are measured to stay put: a picture that moves, or registrations that disagree, fall back to what `panning` and `handheld` do, a registration a few seconds from each shot. Also validated, stored, echoed and part of the same-link dedupe key.",
    }),
  has_jerseys: z.boolean().default(true).meta({ description: "Whether players wear numbered jerseys" }),
  jerseys: z
    .enum(JERSEY_READING)
    .default("auto")
    .meta({ description: "Jersey-number reading: `auto` (when `has_jerseys`), `enabled`, `disabled`. Rosters need `auto` or `enabled`." }),
};

/** The submit body's `options`: strict, every field defaulted. */
export const SubmitOptionsSchema = z.strictObject(submitOptionFields).meta({ id: "SubmitOptions" });
/** The same options as a claimed job carries them (unknown fields dropped, not refused). */
export const JobOptionsSchema = z.object(submitOptionFields);
export type SubmitOptions = z.infer<typeof SubmitOptionsSchema>;
export const DEFAULT_SUBMIT_OPTIONS: SubmitOptions = SubmitOptionsSchema.parse({});

const rosterPlayerFields = {
  jersey: z.string().regex(/^[0-9]{1,3}$/, 'jersey is 1 to 3 digits, as a string (e.g. "07")'),
  name: z.string().min(1).max(100).optional(),
  user_id: z.string().min(1).max(255).optional(),
  metadata: MetadataSchema.optional(),
};
const uniqueJerseys = (ps: { jersey: string }[]) => new Set(ps.map((p) => p.jersey)).size === ps.length;

function rosterOf<P extends z.ZodType<{ jersey: string }>>(player: P, strict: boolean) {
  const fields = {
    team: z.union([z.literal(0), z.literal(1)]),
    name: z.string().min(1).max(100).optional(),
    players: z.array(player).min(1).max(30).refine(uniqueJerseys, "jersey numbers must be unique within a team"),
  };
  return strict ? z.strictObject(fields) : z.object(fields);
}

export const RosterPlayerSchema = z.strictObject(rosterPlayerFields).meta({ id: "RosterPlayer" });
export const RosterSchema = rosterOf(RosterPlayerSchema, true).meta({ id: "Roster" });
/** A claimed job's rosters, lenient like JobOptionsSchema. */
export const JobRosterSchema = rosterOf(z.object(rosterPlayerFields), false);
export type Roster = z.infer<typeof RosterSchema>;
export type RosterPlayer = z.infer<typeof RosterPlayerSchema>;

/** Each team (0, 1) at most once: the submit body's rule and a claimed job's. */
export const RostersSchema = z
  .array(RosterSchema)
  .max(2)
  .refine((rs) => new Set(rs.map((r) => r.team)).size === rs.length, "each team (0, 1) appears at most once");
