// The runner API's wire contract (/runner/v1): every request a GPU runner
// sends and every answer the Worker gives, as zod schemas and the types
// inferred from them. The Worker's routes are built on these schemas (they
// validate requests and describe the OpenAPI document, where `meta({id})`
// names the components); the runner's client (gpu-runner/api.ts) types its
// requests from them and validates every answer against them. Plain `zod`
// only — no Hono, no D1, no Worker or Node APIs — so a GPU host installed
// with `npm ci --omit=dev` runs it as it is.
//
// Output files are named by the runner (`renditions/720p.mp4`,
// `highlights/h3/default.mp4`, …) and uploaded through tus targets under
// `sessions/<id>/outputs/<name>`; the result refers to them by name. Shots,
// highlights and players refer to each other by the runner's local keys; the
// Worker assigns the public ids.
import { z } from "zod";
import { COURT_FOUND_BY, COURT_TYPE_IDS } from "./court-types";
import { JobOptionsSchema, JobRosterSchema } from "./job-options";

export const RUNNER_API_PREFIX = "/runner/v1";

/** The spec's `error.code` values of a failed session. */
export const SESSION_ERROR_CODES = ["no_shots", "no_hoops", "no_court", "video_too_large", "source_invalid", "source_unavailable", "timeout", "unknown"] as const;
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

/** The spec's size limit on a video (10 GB, decimal); no file a runner uploads may be larger. */
export const MAX_VIDEO_BYTES = 10_000_000_000;
/** The spec's resolution limit: at most 1920×1080 in either orientation (gpu-runner/job.ts checks it). */
export const MAX_VIDEO_LONG_SIDE = 1920;
export const MAX_VIDEO_SHORT_SIDE = 1080;

export const HIGHLIGHT_RENDITIONS = ["default", "horizontal", "1080p", "720p", "480p", "360p", "240p", "144p"] as const;
export const HIGHLIGHT_PREVIEWS = ["default", "horizontal"] as const;
export const ARTIFACT_KINDS = ["actions", "balls", "hoops", "clusters"] as const;

/** Relative output name: letters, digits, `._-/`, no `..`, no leading slash. */
export const OutputName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._\-/]+$/, "a relative path of letters, digits, '.', '_', '-' and '/'");

const nullableOutput = OutputName.nullable().default(null);
const outputsNamed = <const K extends readonly string[]>(names: K) =>
  z.object(Object.fromEntries(names.map((n) => [n, nullableOutput])) as Record<K[number], typeof nullableOutput>);

const Point = z.array(z.number().min(0).max(1)).length(2).nullable().default(null);
const LocalKey = z.string().min(1).max(100);

// ------------------------------------------------------------------ the result

export const ShotResult = z.object({
  key: LocalKey,
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
  /**
   * The court `location.shot_world_normed` is measured on: its type (contract/court-types.ts) and
   * how it was found; null when the shot has no court position. Not a field of the public Shot (the
   * spec's Shot has none for it): the hub page draws and names the chart's court from it.
   */
  court: z.object({ type: z.enum(COURT_TYPE_IDS), found_by: z.enum(COURT_FOUND_BY) }).nullable().default(null),
  excitement_score: z.number().nullable().default(null),
  /** Player keys; a shot names a player only in a role it admits (contract/box-score.ts `shotAdmits`). */
  players: z
    .object({
      scorer: z.string().nullable().default(null),
      assister: z.string().nullable().default(null),
      rebounder: z.string().nullable().default(null),
    })
    .default({ scorer: null, assister: null, rebounder: null }),
  highlight: z.string().nullable().default(null),
});

export const HighlightResult = z.object({
  key: LocalKey,
  shot: LocalKey,
  shot_index: z.number().int().min(0).nullable().default(null),
  length_seconds: z.number().min(0),
  is_lowlight: z.boolean().default(false),
  is_manual: z.boolean().default(false),
  player: z.string().nullable().default(null),
  video: outputsNamed(HIGHLIGHT_RENDITIONS),
  preview: outputsNamed(HIGHLIGHT_PREVIEWS),
});

/**
 * A detected player. No `stats`: the Worker derives every player's box score from the shots that
 * name them (contract/box-score.ts), so the two can never disagree.
 */
export const PlayerResult = z.object({
  key: LocalKey,
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
    artifacts: outputsNamed(ARTIFACT_KINDS),
    shots: z.array(ShotResult).max(5000).default([]),
    highlights: z.array(HighlightResult).max(5000).default([]),
    players: z.array(PlayerResult).max(500).default([]),
  })
  .meta({ id: "JobResult" });

// ------------------------------------------------------------------ claim

export const ClaimRequest = z.object({ wait_seconds: z.number().int().min(0).max(25).default(20) });

export const ClaimedJob = z
  .object({
    id: z.string(),
    session: z.string(),
    lease: z.object({ id: z.string(), expires_at: z.number().int() }),
    attempt: z.number().int(),
    source: z.object({ type: z.enum(["upload", "url", "veo"]), download_url: z.string() }),
    /** The session's submit options, every field present (contract/job-options.ts). */
    options: JobOptionsSchema,
    rosters: z.array(JobRosterSchema).max(2).nullable(),
  })
  .meta({ id: "ClaimedJob" });

export const ClaimAnswer = z.object({ job: ClaimedJob.nullable() }).meta({ id: "ClaimAnswer" });

// ------------------------------------------------------------------ heartbeat

export const HeartbeatRequest = z.object({
  lease_id: z.string().min(1),
  stage: z.string().max(50).optional(),
  percent: z.number().min(0).max(100).optional(),
});

export const HeartbeatAnswer = z.object({ lease_expires_at: z.number().int(), cancel: z.boolean() }).meta({ id: "HeartbeatAnswer" });

// ------------------------------------------------------------------ measured

/**
 * The runner has probed the source: its measured length, sent before any analysis. The Worker
 * raises the session's hold to the measured cost, or fails the session when the balance cannot
 * cover it (docs/sessions.md, "The measured step").
 */
export const MeasuredRequest = z
  .object({
    lease_id: z.string().min(1),
    /** The probed length in seconds; the Worker bills whole seconds (a started second counts as one), as at complete. */
    duration_seconds: z.number().positive(),
  })
  .meta({ id: "MeasuredRequest" });

export const MeasuredAnswer = z
  .object({
    /**
     * False: the balance cannot cover the measured cost, and the session has already failed (hold
     * voided, nothing charged). The runner stops the job at once and reports nothing more.
     */
    proceed: z.boolean(),
    /** Cost of the measured length, in cents. */
    needed_cents: z.number().int().min(0),
    /** The session's hold after this step: at least `needed_cents` when proceeding, 0 when stopped. */
    held_cents: z.number().int().min(0),
  })
  .meta({ id: "MeasuredAnswer" });

// ------------------------------------------------------------------ outputs

export const OutputRequest = z.object({
  lease_id: z.string().min(1),
  name: OutputName,
  size: z.number().int().min(1).max(MAX_VIDEO_BYTES),
  content_type: z.string().min(3).max(100),
});

export const OutputTarget = z.object({ name: z.string(), upload_url: z.string(), offset: z.number().int() }).meta({ id: "OutputTarget" });

// ------------------------------------------------------------------ complete, fail, release

export const CompleteRequest = z.object({ lease_id: z.string().min(1), result: JobResult });
export const CompleteAnswer = z.object({ status: z.literal("processed") });

export const FailRequest = z.object({
  lease_id: z.string().min(1),
  code: z.enum(SESSION_ERROR_CODES),
  message: z.string().min(1).max(1000),
});
export const FailAnswer = z.object({ status: z.literal("failed") });

export const ReleaseRequest = z.object({ lease_id: z.string().min(1), reason: z.string().max(500).optional() });
export const ReleaseAnswer = z.object({ status: z.literal("released") });

/**
 * Every route of the runner API with its request and answer, keyed by what it does. The runner's
 * client calls exactly these; `test/worker/runner-contract.test.ts` runs it against the Worker and
 * checks both directions against these schemas.
 */
export const RUNNER_ROUTES = {
  claim: { path: "/jobs/claim", request: ClaimRequest, answer: ClaimAnswer },
  heartbeat: { path: "/jobs/{id}/heartbeat", request: HeartbeatRequest, answer: HeartbeatAnswer },
  measured: { path: "/jobs/{id}/measured", request: MeasuredRequest, answer: MeasuredAnswer },
  createOutput: { path: "/jobs/{id}/outputs", request: OutputRequest, answer: OutputTarget },
  complete: { path: "/jobs/{id}/complete", request: CompleteRequest, answer: CompleteAnswer },
  fail: { path: "/jobs/{id}/fail", request: FailRequest, answer: FailAnswer },
  release: { path: "/jobs/{id}/release", request: ReleaseRequest, answer: ReleaseAnswer },
} as const;
export type RunnerRoute = keyof typeof RUNNER_ROUTES;

/** What a runner sends to `route` (defaults may be left out). */
export type RunnerRequest<R extends RunnerRoute> = z.input<(typeof RUNNER_ROUTES)[R]["request"]>;
/** What the Worker answers on `route`. */
export type RunnerAnswer<R extends RunnerRoute> = z.output<(typeof RUNNER_ROUTES)[R]["answer"]>;

export type ShotResult = z.output<typeof ShotResult>;
export type HighlightResult = z.output<typeof HighlightResult>;
export type PlayerResult = z.output<typeof PlayerResult>;
/** The result as the Worker reads it (defaults filled in). */
export type JobResult = z.output<typeof JobResult>;
/** The result as a runner may send it (defaulted fields optional). */
export type JobResultInput = z.input<typeof JobResult>;
export type ClaimedJob = z.output<typeof ClaimedJob>;
