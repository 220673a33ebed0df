// The body of POST /v1/sessions. Objects are strict: an unknown key (a typo
// such as `options.sesion_type`) is refused rather than silently ignored.
// The options, rosters and metadata are the contract's (contract/job-options.ts): the runner reads
// a claimed job's options with the same types.
import { z } from "@hono/zod-openapi";
import { MetadataSchema, RostersSchema, SubmitOptionsSchema } from "../../contract/job-options";

export {
  METADATA_KEY_MAX,
  METADATA_MAX_PAIRS,
  METADATA_VALUE_MAX,
  MetadataSchema,
  RosterPlayerSchema,
  RosterSchema,
  SubmitOptionsSchema,
  type Roster,
  type SubmitOptions,
} from "../../contract/job-options";

/** One day of video: far above any game, low enough to keep a typo from holding a fortune. */
export const DURATION_MAX_SECONDS = 24 * 3600;

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
    rosters: RostersSchema.optional(),
  })
  .strict()
  .openapi("SubmitSession");

export type SubmitSessionInput = z.infer<typeof SubmitSessionBody>;
