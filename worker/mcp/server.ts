// The assistant tool server (SPEC section 12): eight tools, each one call to /v1 made with the
// caller's API key. Built per request: the server is stateless (no MCP session), which lets any
// edge location answer any call.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { z } from "zod";
import { sha256Hex } from "../ids";
import { canonicalJson } from "../services/idempotency";
import { DURATION_MAX_SECONDS, MetadataSchema, RosterSchema, SubmitOptionsSchema } from "../schemas/session-create";
import type { Highlight, Player, Session, Shot } from "../schemas/sessions";
import type { ApiClient, ApiRequest, ApiResponse } from "./api-client";
import { mapList, summarizeHighlight, summarizePlayer, summarizeSession, summarizeShot, type List } from "./summaries";
import { baseName, contentTypeForPath, uploadCommand } from "./upload-command";

export const TOOL_SERVER_NAME = "hoops-video-analysis";

export const MISSING_KEY_MESSAGE =
  "The API key is missing: the tool server makes every call with the caller's API key, sent in the `Authorization: Bearer hk_…` header of the MCP connection. Add it to this server's configuration in the assistant (OAuth sign-in is not supported).";

/** The facts of an API answer other than 2xx: status, code, message, the error's detail fields, Request-Id. */
function apiErrorDetail(res: ApiResponse): Record<string, unknown> {
  const error = (res.body as { error?: Record<string, unknown> } | null)?.error;
  const { code, message, ...extra } = error ?? {};
  const retryAfter = res.headers.get("Retry-After");
  return {
    status: res.status,
    code: code ?? "api_error",
    message: message ?? (typeof res.body === "string" && res.body ? res.body : "no error detail was returned"),
    ...extra,
    request_id: res.headers.get("Request-Id"),
    ...(retryAfter !== null ? { retry_after_seconds: Number(retryAfter) } : {}),
  };
}

/** The same, as a sentence for a person reading the assistant's transcript. */
function describeApiError(d: Record<string, unknown>): string {
  const { status, code, message, request_id, retry_after_seconds, type: _type, ...extra } = d;
  const extras = Object.entries(extra).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [
    `The API answered ${status} ${code}: ${message}`,
    extras.length ? `Details: ${extras.join(", ")}.` : "",
    retry_after_seconds !== undefined ? `Retry-After: ${retry_after_seconds} s.` : "",
    `Request-Id: ${request_id ?? "none"}.`,
  ].filter(Boolean).join(" ");
}

function result(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

function toolError(message: string, detail?: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }], ...(detail ? { structuredContent: { error: detail } } : {}) };
}

/** `sess_…` or the bare id: both name the same session. */
export function sessionPath(sessionId: string): string {
  const id = sessionId.trim();
  return `/v1/sessions/${encodeURIComponent(id.startsWith("sess_") ? id : `sess_${id}`)}`;
}

const SessionIdArg = z.string().min(1).max(100).describe("The session id, `sess_…` (the prefix may be left out)");
const PageArgs = {
  limit: z.number().int().min(1).max(250).optional().describe("How many items, 1 to 250 (default 100)"),
  offset: z.number().int().min(0).optional().describe("How many items to skip (default 0)"),
};

export interface ToolServerOptions {
  /** The API client for the caller's key, or null when the request carried no usable key. */
  api: ApiClient | null;
  /**
   * Mints the `hub_url` share link of a session the caller's key has just read (so the tool never
   * links a session the key could not see).
   */
  shareLink: (sessionId: string) => Promise<string>;
  version: string;
}

export function buildToolServer(opts: ToolServerOptions): McpServer {
  const server = new McpServer(
    { name: TOOL_SERVER_NAME, version: opts.version },
    {
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions:
        "Analyses video of one basketball game: upload a file (create_upload, then run the returned command on the user's machine) or pass a public link to analyze_video, then poll get_session until status is `processed` (minutes to an hour) and read shots, highlights and players. analyze_video spends the organization's credits (get_balance shows them).",
    },
  );
  const { api } = opts;
  /** One API call per tool call; a missing key or an API error comes back as a readable tool error. */
  const call = async (req: ApiRequest): Promise<{ ok: true; body: unknown; res: ApiResponse } | { ok: false; error: CallToolResult }> => {
    if (!api) return { ok: false, error: toolError(MISSING_KEY_MESSAGE, { code: "missing_api_key", message: MISSING_KEY_MESSAGE }) };
    const res = await api.request(req);
    if (res.status >= 200 && res.status < 300) return { ok: true, body: res.body, res };
    const detail = apiErrorDetail(res);
    return { ok: false, error: toolError(describeApiError(detail), detail) };
  };

  server.registerTool(
    "create_upload",
    {
      title: "Create an upload",
      description:
        "Reserves an upload for a local MP4 or MOV file and returns `upload_id` and a shell command that sends the file from the user's machine (curl; the video never passes through this server). Run the command where the file is, then call analyze_video with the `upload_id`. Free. The upload URL accepts the file for 7 days.",
      inputSchema: {
        path: z.string().min(1).max(4096).describe("Path of the video file on the user's machine, as the command will use it"),
        size: z.number().int().min(1).describe("The file's exact size in bytes (e.g. from `stat` or `ls -l`)"),
        content_type: z.enum(["video/mp4", "video/quicktime"]).optional().describe("Defaults from the file extension: .mp4/.m4v → video/mp4, .mov → video/quicktime"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ path, size, content_type }) => {
      const contentType = content_type ?? contentTypeForPath(path);
      if (!contentType) return toolError(`Only MP4 and MOV videos can be analysed, and "${baseName(path)}" has neither extension. Pass content_type if the file is MP4 or MOV under another name.`);
      const r = await call({ method: "POST", path: "/v1/uploads", body: { size, content_type: contentType, filename: baseName(path) } });
      if (!r.ok) return r.error;
      const upload = r.body as { id: string; upload_url: string; size: number; content_type: string; expires_in_seconds: number };
      return result({
        upload_id: upload.id,
        upload_url: upload.upload_url,
        content_type: upload.content_type,
        size: upload.size,
        expires_in_seconds: upload.expires_in_seconds,
        command: uploadCommand({ path, uploadUrl: upload.upload_url, contentType: upload.content_type, size: upload.size }),
        next_step: `Run \`command\` in a shell on the machine that has the file, then call analyze_video with upload_id "${upload.id}".`,
      });
    },
  );

  server.registerTool(
    "analyze_video",
    {
      title: "Analyze a game video",
      description:
        "Starts the analysis of one basketball game from a public https link to an MP4/MOV file, a supported camera platform's match page, or an `upload_id` from create_upload. Returns the new session in status `queued`; poll get_session. Costs credits: a hold for the estimated length is placed now and settled for the measured length (500 cents per hour of video). Calling again with the same arguments returns the same session instead of starting another run.",
      inputSchema: {
        url: z.string().min(1).max(2048).optional().describe("Public https link to the video or to a supported camera platform's match page"),
        upload_id: z.string().min(1).max(100).optional().describe("`up_…` from create_upload, after its command has finished"),
        rosters: z.array(RosterSchema).max(2).optional().describe("Per team (0, 1): jersey numbers with optional names, user_id and metadata; needs options.jerseys `auto` or `enabled`"),
        options: SubmitOptionsSchema.partial().optional().describe("session_type, court_type, camera_setup, has_jerseys, jerseys"),
        metadata: MetadataSchema.optional().describe("Up to 20 string pairs echoed on the session"),
        duration_seconds: z.number().int().positive().max(DURATION_MAX_SECONDS).optional().describe("The video's length if known: makes the credit hold exact"),
        group: z.string().max(100).optional().describe("`grp_…`; default: the organization's default group"),
      },
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
        ...summarizeSession(session, await opts.shareLink(session.id)),
        cost_held_cents: held === null ? null : Number(held),
        replayed: r.res.headers.get("Idempotent-Replayed") === "true",
      });
    },
  );

  server.registerTool(
    "get_session",
    {
      title: "Get a session",
      description: "A session's status (`queued`, `processing`, `processed`, `failed` with `error`), shot and highlight counts, video links, cost and `hub_url` (a link to a page showing the game — video, highlights, shot chart, box scores — that the user can open in a browser without an API key; it expires after 7 days). Poll this after analyze_video.",
      inputSchema: { session_id: SessionIdArg },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ session_id }) => {
      const r = await call({ method: "GET", path: sessionPath(session_id) });
      if (!r.ok) return r.error;
      const session = r.body as Session;
      return result(summarizeSession(session, await opts.shareLink(session.id)));
    },
  );

  server.registerTool(
    "list_sessions",
    {
      title: "List sessions",
      description: "The organization's sessions, newest first, summarized like get_session. Page with `starting_after` = the last id of the previous page.",
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe("1 to 100, default 20"),
        starting_after: z.string().max(100).optional().describe("Cursor: the id of the last session of the previous page"),
        status: z.enum(["queued", "processing", "processed", "failed"]).optional(),
        group: z.string().max(100).optional().describe("`grp_…`"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const r = await call({ method: "GET", path: "/v1/sessions", query: args });
      if (!r.ok) return r.error;
      const sessions = r.body as List<Session>;
      const links = await Promise.all(sessions.data.map((s) => opts.shareLink(s.id)));
      const list = mapList(sessions, (s, i) => summarizeSession(s, links[i]));
      return result({ ...list, next_starting_after: list.has_more ? (list.data.at(-1)?.id ?? null) : null });
    },
  );

  const subList = <T, U>(kind: "shots" | "highlights" | "players", title: string, description: string, summarize: (item: T) => U) =>
    server.registerTool(
      `list_${kind}`,
      { title, description, inputSchema: { session_id: SessionIdArg, ...PageArgs }, annotations: { readOnlyHint: true, openWorldHint: false } },
      async ({ session_id, limit, offset }) => {
        const r = await call({ method: "GET", path: `${sessionPath(session_id)}/${kind}`, query: { limit: limit ?? 100, offset } });
        return !r.ok ? r.error : result(mapList(r.body as List<T>, summarize));
      },
    );
  subList<Shot, unknown>(
    "shots",
    "List a session's shots",
    "Every shot: time in the video, made, points, free throw / three-pointer / and-one, `court_location` ([across, along] the half court, 0..1), scorer, assister, rebounder (`plr_` ids from list_players) and its highlight.",
    summarizeShot,
  );
  subList<Highlight, unknown>(
    "highlights",
    "List a session's highlights",
    "One clip per shot: the vertical (`default`) and `horizontal` cuts, a preview image, length, the scorer, and whether it is a lowlight (a miss). Links are signed and expire after 7 days.",
    summarizeHighlight,
  );
  subList<Player, unknown>(
    "players",
    "List a session's players",
    "The players told apart in the game: jersey, name and metadata from the submitted roster, and team (0 or 1).",
    summarizePlayer,
  );

  server.registerTool(
    "get_balance",
    {
      title: "Get the credit balance",
      description: "Credits available for new analyses, credits held by analyses in flight, and the rate per hour of video (all in cents).",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const r = await call({ method: "GET", path: "/v1/balance" });
      return !r.ok ? r.error : result(r.body as object);
    },
  );
  return server;
}
