// list_sessions: the organization's sessions, summarized like get_session, with a cursor to the next page.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Session } from "../../schemas/sessions";
import { mapList, summarizeSession, type List } from "../summaries";
import { result, type ToolContext } from "../tool-kit";

export function registerListSessions(server: McpServer, { call, shareLink }: ToolContext): void {
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
      const links = await Promise.all(sessions.data.map((s) => shareLink(s.id)));
      const list = mapList(sessions, (s, i) => summarizeSession(s, links[i]));
      return result({ ...list, next_starting_after: list.has_more ? (list.data.at(-1)?.id ?? null) : null });
    },
  );
}
