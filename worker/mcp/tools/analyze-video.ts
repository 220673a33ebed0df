// analyze_video: starts a session (POST /v1/sessions) under an idempotency key derived from the arguments.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { sha256Hex } from "../../ids";
import { canonicalJson } from "../../services/idempotency";
import { DURATION_MAX_SECONDS, MetadataSchema, RosterSchema, SubmitOptionsSchema } from "../../schemas/session-create";
import type { Session } from "../../schemas/sessions";
import { summarizeSession } from "../summaries";
import { result, toolError, type ToolContext } from "../tool-kit";

export function registerAnalyzeVideo(server: McpServer, { call, shareLink }: ToolContext): void {
  server.registerTool(
    "analyze_video",
    {
      title: "Analyze a game video",
      description:
        "Starts the analysis of one basketball game from a public https link to an MP4/MOV file, a supported camera platform's match page, or an `upload_id` from create_upload. Returns the new session in status `queued`; poll get_session. Costs credits: a hold for the estimated length is placed now and settled for the measured length (500 cents per hour of video). Calling again with the same arguments returns the same session instead of starting another run.",
      // The object form, so its JSON Schema can say what the handler enforces: exactly one source.
      // Assistants read `oneOf` from tools/list before calling instead of learning it from a refusal.
      inputSchema: z.object({
        url: z.string().min(1).max(2048).optional().describe("Public https link to the video or to a supported camera platform's match page"),
        upload_id: z.string().min(1).max(100).optional().describe("`up_…` from create_upload, after its command has finished"),
        rosters: z.array(RosterSchema).max(2).optional().describe("Per team (0, 1): jersey numbers with optional names, user_id and metadata; needs options.jerseys `auto` or `enabled`"),
        options: SubmitOptionsSchema.partial().optional().describe("session_type, court_type, camera_setup, has_jerseys, jerseys"),
        metadata: MetadataSchema.optional().describe("Up to 20 string pairs echoed on the session"),
        duration_seconds: z.number().int().positive().max(DURATION_MAX_SECONDS).optional().describe("The video's length if known: makes the credit hold exact"),
        group: z.string().max(100).optional().describe("`grp_…`; default: the organization's default group"),
      }).meta({ oneOf: [{ required: ["url"] }, { required: ["upload_id"] }] }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (args) => {
      const { url, upload_id, ...rest } = args;
      if ((url === undefined) === (upload_id === undefined)) return toolError("Give exactly one of `url` (a public https link) or `upload_id` (from create_upload).");
      const body = { source: url !== undefined ? { url } : { type: "upload", upload_id }, ...rest };
      // Derived from the arguments, so an assistant retrying a call it lost the answer to gets the
      // session it already started (SPEC 12, difference 8).
      const idempotencyKey = `mcp_analyze_${await sha256Hex(canonicalJson(args))}`;
      const r = await call({ method: "POST", path: "/v1/sessions", body, headers: { "Idempotency-Key": idempotencyKey } });
      if (!r.ok) return r.error;
      const held = r.res.headers.get("X-Service-Cost-Cents");
      const session = r.body as Session;
      return result({
        ...summarizeSession(session, await shareLink(session.id)),
        cost_held_cents: held === null ? null : Number(held),
        replayed: r.res.headers.get("Idempotent-Replayed") === "true",
      });
    },
  );
}
