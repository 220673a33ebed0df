// get_balance: the organization's credits, as GET /v1/balance returns them.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { result, type ToolContext } from "../tool-kit";

export function registerGetBalance(server: McpServer, { call }: ToolContext): void {
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
}
