// The assistant tool server endpoint (MCP over Streamable HTTP, stateless, JSON responses).
// Outside /v1 and its OpenAPI document: it speaks JSON-RPC, and its tools call /v1 in-process with
// the caller's key, so they are authenticated and rate-limited exactly like direct API calls.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { createApiClient } from "../../mcp/api-client";
import { buildToolServer } from "../../mcp/server";
import { parseBearer } from "../../middleware/auth";

export const MCP_PATH = "/mcp";

export function registerMcpEndpoint(app: Hono<AppEnv>, version: string) {
  app.post(MCP_PATH, async (c) => {
    const authorization = c.req.header("Authorization");
    const api = parseBearer(authorization)
      ? createApiClient((req) => Promise.resolve(app.fetch(req, c.env, c.executionCtx)), new URL(c.req.url).origin, authorization!)
      : null;
    const server = buildToolServer({ api, hubBaseUrl: c.env.HUB_BASE_URL, version });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // Stateless: no server-initiated stream to open and no MCP session to end.
  app.on(["GET", "DELETE"], MCP_PATH, (c) => {
    throw new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${MCP_PATH}: this tool server is stateless and answers POSTed JSON-RPC messages only.`, {
      headers: { Allow: "POST" },
    });
  });
}
