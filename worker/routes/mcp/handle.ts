// The assistant tool server endpoint (MCP over Streamable HTTP, stateless, JSON responses).
// Outside /v1 and its OpenAPI document: it speaks JSON-RPC, and its tools call /v1 in-process with
// the caller's key, so they are authenticated and rate-limited exactly like direct API calls.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { createApiClient } from "../../mcp/api-client";
import { buildToolServer } from "../../mcp/server";
import { parseBearer } from "../../middleware/auth";
import { SHARE_LINK_DEFAULT_SECONDS } from "../../schemas/share-links";
import { createShareLink, hubBaseUrl } from "../../services/share-links";

export const MCP_PATH = "/mcp";

export function registerMcpEndpoint(app: Hono<AppEnv>, version: string) {
  // Browser-based MCP clients (the MCP Inspector, web assistants) call from other origins. The key
  // travels in the Authorization header, never in cookies, so any origin may call.
  app.use(
    MCP_PATH,
    cors({
      origin: "*",
      allowMethods: ["POST", "GET", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "Accept", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"],
      exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "Request-Id"],
      maxAge: 86_400,
    }),
  );
  app.post(MCP_PATH, async (c) => {
    const authorization = c.req.header("Authorization");
    const api = parseBearer(authorization)
      ? createApiClient((req) => Promise.resolve(app.fetch(req, c.env, c.executionCtx)), new URL(c.req.url).origin, authorization!)
      : null;
    const { env, now } = c.get("services");
    const hubBase = hubBaseUrl(env, c.req.url);
    const shareLink = async (sessionId: string) =>
      (await createShareLink(env, hubBase, sessionId, { expiresInSeconds: SHARE_LINK_DEFAULT_SECONDS, now: now() })).url;
    const server = buildToolServer({ api, shareLink, version });
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
