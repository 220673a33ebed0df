// get_session: one session's summary and its hub_url share link.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Session } from "../../schemas/sessions";
import { summarizeSession } from "../summaries";
import { result, sessionPath, SessionIdArg, type ToolContext } from "../tool-kit";

export function registerGetSession(server: McpServer, { call, shareLink }: ToolContext): void {
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
      return result(summarizeSession(session, await shareLink(session.id)));
    },
  );
}
