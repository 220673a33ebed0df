// list_highlights: a session's highlight clips, summarized for an assistant.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Highlight } from "../../schemas/sessions";
import { summarizeHighlight } from "../summaries";
import { registerSessionListTool, type ToolContext } from "../tool-kit";

export function registerListHighlights(server: McpServer, tools: ToolContext): void {
  registerSessionListTool<Highlight>(
    server,
    tools,
    "highlights",
    "List a session's highlights",
    "One clip per shot: the vertical (`default`) and `horizontal` cuts, a preview image, length, the scorer, and whether it is a lowlight (a miss). Links are signed and expire after 7 days.",
    summarizeHighlight,
  );
}
