// list_shots: a session's shots, summarized for an assistant.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Shot } from "../../schemas/sessions";
import { summarizeShot } from "../summaries";
import { registerSessionListTool, type ToolContext } from "../tool-kit";

export function registerListShots(server: McpServer, tools: ToolContext): void {
  registerSessionListTool<Shot>(
    server,
    tools,
    "shots",
    "List a session's shots",
    "Every shot: time in the video, made, points, free throw / three-pointer / and-one, `court_location` ([across, along] the half court, 0..1), scorer, assister, rebounder (`plr_` ids from list_players) and its highlight.",
    summarizeShot,
  );
}
