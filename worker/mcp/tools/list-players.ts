// list_players: a session's players, summarized for an assistant.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Player } from "../../schemas/sessions";
import { summarizePlayer } from "../summaries";
import { registerSessionListTool, type ToolContext } from "../tool-kit";

export function registerListPlayers(server: McpServer, tools: ToolContext): void {
  registerSessionListTool<Player>(
    server,
    tools,
    "players",
    "List a session's players",
    "The players told apart in the game: jersey, name and metadata from the submitted roster, and team (0 or 1).",
    summarizePlayer,
  );
}
