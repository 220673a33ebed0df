// What every tool of the assistant tool server shares: the one API call a tool makes (with the
// caller's key; a missing key or an API error comes back as a readable tool error), the shapes of
// a tool's answer, and the arguments several tools take. Each tool is one file in tools/.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiClient, ApiRequest, ApiResponse } from "./api-client";
import { mapList, type List } from "./summaries";

export const MISSING_KEY_MESSAGE =
  "The API key is missing: the tool server makes every call with the caller's API key, sent in the `Authorization: Bearer hk_…` header of the MCP connection. Add it to this server's configuration in the assistant (OAuth sign-in is not supported).";

export type ApiCall = (req: ApiRequest) => Promise<{ ok: true; body: unknown; res: ApiResponse } | { ok: false; error: CallToolResult }>;

/** What a tool is given: its one way to call the API, and the share-link minter. */
export interface ToolContext {
  call: ApiCall;
  /**
   * Mints the `hub_url` share link of a session the caller's key has just read (so the tool never
   * links a session the key could not see).
   */
  shareLink: (sessionId: string) => Promise<string>;
}

/** The facts of an API answer other than 2xx: status, code, message, the error's detail fields, Request-Id. */
function apiErrorDetail(res: ApiResponse): Record<string, unknown> {
  const error = (res.body as { error?: Record<string, unknown> } | null)?.error;
  const { code, message, ...extra } = error ?? {};
  const retryAfter = res.headers.get("Retry-After");
  return {
    status: res.status,
    code: code ?? "api_error",
    message: message ?? (typeof res.body === "string" && res.body ? res.body : "no error detail was returned"),
    ...extra,
    request_id: res.headers.get("Request-Id"),
    ...(retryAfter !== null ? { retry_after_seconds: Number(retryAfter) } : {}),
  };
}

/** The same, as a sentence for a person reading the assistant's transcript. */
function describeApiError(d: Record<string, unknown>): string {
  const { status, code, message, request_id, retry_after_seconds, type: _type, ...extra } = d;
  const extras = Object.entries(extra).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [
    `The API answered ${status} ${code}: ${message}`,
    extras.length ? `Details: ${extras.join(", ")}.` : "",
    retry_after_seconds !== undefined ? `Retry-After: ${retry_after_seconds} s.` : "",
    `Request-Id: ${request_id ?? "none"}.`,
  ].filter(Boolean).join(" ");
}

export function result(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

export function toolError(message: string, detail?: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }], ...(detail ? { structuredContent: { error: detail } } : {}) };
}

/** One API call per tool call, made with the caller's key (null: the request carried no usable key). */
export function apiCall(api: ApiClient | null): ApiCall {
  return async (req) => {
    if (!api) return { ok: false, error: toolError(MISSING_KEY_MESSAGE, { code: "missing_api_key", message: MISSING_KEY_MESSAGE }) };
    const res = await api.request(req);
    if (res.status >= 200 && res.status < 300) return { ok: true, body: res.body, res };
    const detail = apiErrorDetail(res);
    return { ok: false, error: toolError(describeApiError(detail), detail) };
  };
}

/** `sess_…` or the bare id: both name the same session. */
export function sessionPath(sessionId: string): string {
  const id = sessionId.trim();
  return `/v1/sessions/${encodeURIComponent(id.startsWith("sess_") ? id : `sess_${id}`)}`;
}

export const SessionIdArg = z.string().min(1).max(100).describe("The session id, `sess_…` (the prefix may be left out)");
const PageArgs = {
  limit: z.number().int().min(1).max(250).optional().describe("How many items, 1 to 250 (default 100)"),
  offset: z.number().int().min(0).optional().describe("How many items to skip (default 0)"),
};

/** The three tools that page through one list of a session (shots, highlights, players), each summarized. */
export function registerSessionListTool<T>(
  server: McpServer,
  { call }: ToolContext,
  kind: "shots" | "highlights" | "players",
  title: string,
  description: string,
  summarize: (item: T) => unknown,
): void {
  server.registerTool(
    `list_${kind}`,
    { title, description, inputSchema: { session_id: SessionIdArg, ...PageArgs }, annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ session_id, limit, offset }) => {
      const r = await call({ method: "GET", path: `${sessionPath(session_id)}/${kind}`, query: { limit: limit ?? 100, offset } });
      return !r.ok ? r.error : result(mapList(r.body as List<T>, summarize));
    },
  );
}
