// The assistant tool server (SPEC section 12): eight tools, each one call to /v1 made with the
// caller's API key, each in its own file under tools/ (as the routes are). Built per request: the
// server is stateless (no MCP session), which lets any edge location answer any call.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import type { ApiClient } from "./api-client";
import { apiCall, type ToolContext } from "./tool-kit";
import { registerAnalyzeVideo } from "./tools/analyze-video";
import { registerCreateUpload } from "./tools/create-upload";
import { registerGetBalance } from "./tools/get-balance";
import { registerGetSession } from "./tools/get-session";
import { registerListHighlights } from "./tools/list-highlights";
import { registerListPlayers } from "./tools/list-players";
import { registerListSessions } from "./tools/list-sessions";
import { registerListShots } from "./tools/list-shots";

export { MISSING_KEY_MESSAGE, sessionPath } from "./tool-kit";

export const TOOL_SERVER_NAME = "hoops-video-analysis";

/** Every tool, in the order tools/list shows them. A new tool is a file in tools/ and a line here. */
const TOOLS: ((server: McpServer, tools: ToolContext) => void)[] = [
  registerCreateUpload,
  registerAnalyzeVideo,
  registerGetSession,
  registerListSessions,
  registerListShots,
  registerListHighlights,
  registerListPlayers,
  registerGetBalance,
];

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
  const tools: ToolContext = { call: apiCall(opts.api), shareLink: opts.shareLink };
  for (const register of TOOLS) register(server, tools);
  return server;
}
