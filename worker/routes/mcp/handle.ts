// The assistant tool server endpoint (MCP over Streamable HTTP, stateless, JSON responses).
// Outside /v1 and its OpenAPI document: it speaks JSON-RPC, and its tools call /v1 in-process with
// the caller's key, so they are authenticated and rate-limited exactly like direct API calls.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { InitializeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
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
    const refusal = await refuseInvalidInitialize(c.req.raw);
    if (refusal) return refusal;
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

/**
 * The SDK answers an `initialize` whose params do not parse with `-32603` and its schema library's
 * dump. JSON-RPC says invalid params are `-32602`; an assistant's developer should read one line
 * naming what is missing, so such an `initialize` is answered here before the SDK sees it.
 */
async function refuseInvalidInitialize(request: Request): Promise<Response | null> {
  let message: unknown;
  try {
    message = await request.clone().json();
  } catch {
    return null; // not JSON: the transport answers its own parse error
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
  if (method !== "initialize") return null;
  const parsed = InitializeRequestSchema.shape.params.safeParse(params);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `params.${issue.path.join(".")}` : "params";
  return Response.json({
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: {
      code: -32602,
      message: `Invalid initialize params: ${where} is missing or invalid; send protocolVersion (string), capabilities (object) and clientInfo {name, version}.`,
    },
  });
}
