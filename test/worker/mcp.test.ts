// The assistant tool server driven by the official MCP client over Streamable HTTP, through the
// Worker's own fetch handler (real D1, R2, Durable Objects): every tool is a /v1 call with the
// caller's key, trimmed as SPEC section 12 lists.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, call, createOrg, type TestOrg } from "./helpers";
import { insertUpload, seedProcessedSession } from "./session-fixtures";

const workerFetch = (input: string | URL | Request, init?: RequestInit) =>
  (exports as unknown as { default: Fetcher }).default.fetch(new Request(input, init));

async function connect(authorization?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    fetch: workerFetch,
    requestInit: authorization ? { headers: { Authorization: authorization } } : undefined,
  });
  const client = new Client({ name: "test-assistant", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = res.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return { isError: res.isError === true, text, data: res.structuredContent as any };
}

let org: TestOrg;
let client: Client;
beforeAll(async () => {
  org = await createOrg({ creditsCents: 100_000 });
  client = await connect(`Bearer ${org.key}`);
});

describe("tool server", () => {
  it("analyze_video's input schema says exactly one of url / upload_id (oneOf), as tools/list shows it", async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "analyze_video")!.inputSchema as Record<string, unknown>;
    expect(schema.oneOf).toEqual([{ required: ["url"] }, { required: ["upload_id"] }]);
    expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(["url", "upload_id"]));
  });

  it("answers initialize with empty or invalid params with JSON-RPC -32602 and one line, not -32603 and a schema dump", async () => {
    const bodies = [
      { jsonrpc: "2.0", id: 1, method: "initialize" },
      { jsonrpc: "2.0", id: 2, method: "initialize", params: {} },
      { jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: 7, capabilities: {}, clientInfo: { name: "x", version: "1" } } },
    ];
    for (const body of bodies) {
      const res = await workerFetch(`${BASE}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${org.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { id: unknown; error?: { code: number; message: string } };
      expect(answer.id).toBe(body.id);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).not.toContain("\n");
      expect(answer.error!.message.length).toBeLessThan(300);
    }
  });

  it("lists the eight tools of the spec", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["analyze_video", "create_upload", "get_balance", "get_session", "list_highlights", "list_players", "list_sessions", "list_shots"],
    );
    const analyze = tools.find((t) => t.name === "analyze_video")!;
    expect(Object.keys(analyze.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["url", "upload_id", "rosters"]));
  });

  it("fails every tool call without a usable Authorization header, saying the key is missing", async () => {
    for (const header of [undefined, "Basic dXNlcjpwYXNz", "Bearer"]) {
      const anonymous = await connect(header);
      for (const name of ["get_balance", "list_sessions"]) {
        const r = await tool(anonymous, name);
        expect(r.isError, `${header} ${name}`).toBe(true);
        expect(r.text).toMatch(/API key is missing/);
      }
      await anonymous.close();
    }
  });

  it("surfaces API errors with status, code, message and Request-Id", async () => {
    const stranger = await connect(`Bearer hk_stg_${"0".repeat(32)}`);
    const r = await tool(stranger, "get_balance");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/401 invalid_api_key/);
    expect(r.text).toMatch(/Request-Id: req_[0-9A-Za-z]+/);
    expect(r.data.error).toMatchObject({ status: 401, code: "invalid_api_key" });
    const prod = await connect(`Bearer hk_prod_${"0".repeat(32)}`);
    expect((await tool(prod, "get_balance")).text).toMatch(/401 wrong_environment.*staging/);
  });

  it("answers malformed messages and arguments with protocol errors, never a 500", async () => {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${org.key}` };
    const garbage = await call("/mcp", { method: "POST", headers, body: "{not json" });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as any).error.code).toBe(-32700);
    const r = (await client.callTool({ name: "list_shots", arguments: { session_id: "sess_x", limit: 1000 } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/limit/);
    await expect(client.callTool({ name: "delete_everything", arguments: {} })).resolves.toMatchObject({ isError: true });
  });

  it("answers CORS preflights, so browser-based clients can connect", async () => {
    const res = await call("/mcp", {
      method: "OPTIONS",
      headers: { Origin: "https://inspector.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("authorization");
    const post = await call("/mcp", {
      method: "POST",
      headers: { Origin: "https://inspector.example", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("answers GET with 405: the server is stateless", async () => {
    const res = await call("/mcp", { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});

describe("get_balance", () => {
  it("returns the organization's balance", async () => {
    const r = await tool(client, "get_balance");
    expect(r.isError).toBe(false);
    expect(r.data).toMatchObject({ available_cents: 100_000, held_cents: 0, rate_cents_per_hour: 500 });
  });
});

describe("create_upload", () => {
  it("reserves the upload and returns a single-PUT command for the file", async () => {
    const r = await tool(client, "create_upload", { path: "/home/ana/Game Day's.MP4", size: 12_345 });
    expect(r.isError).toBe(false);
    expect(r.data.upload_id).toMatch(/^up_/);
    expect(r.data.content_type).toBe("video/mp4");
    expect(r.data.upload_method).toBe("put");
    expect(r.data.command).toBe(`curl -sS --fail-with-body -X PUT -H 'Content-Type: video/mp4' --upload-file '/home/ana/Game Day'\\''s.MP4' '${r.data.upload_url}'`);
    // The command's URL takes the bytes without an API key.
    const put = await workerFetch(r.data.upload_url, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body: new Uint8Array(12_345) });
    expect(put.status).toBe(200);
  });

  it("gives a resumable tus command above the single-PUT limit, and MOV from the extension", async () => {
    const r = await tool(client, "create_upload", { path: "C:\\games\\final.mov", size: 250_000_000 });
    expect(r.data.content_type).toBe("video/quicktime");
    expect(r.data.upload_method).toBe("tus");
    expect(r.data.command).toMatch(/^sh -c '/);
    expect(r.data.command).toContain("PATCH");
    expect(r.data.command).toContain(`'${r.data.upload_url}' 250000000 52428800`);
  });

  it("refuses files that are neither MP4 nor MOV, and passes the API's validation errors through", async () => {
    const avi = await tool(client, "create_upload", { path: "clip.avi", size: 10 });
    expect(avi.isError).toBe(true);
    expect(avi.text).toMatch(/MP4 and MOV/);
    const huge = await tool(client, "create_upload", { path: "a.mp4", size: 20_000_000_000 });
    expect(huge.isError).toBe(true);
    expect(huge.text).toMatch(/400 parameter_invalid/);
    expect(huge.text).toMatch(/param: size/);
  });
});

describe("analyze_video and get_session", () => {
  it("refuses an upload whose bytes have not landed", async () => {
    const pending = await insertUpload(org, { status: "pending" });
    const r = await tool(client, "analyze_video", { upload_id: pending });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/409 upload_incomplete/);
  });

  it("needs exactly one of url and upload_id", async () => {
    expect((await tool(client, "analyze_video", {})).text).toMatch(/exactly one of `url`/);
    expect((await tool(client, "analyze_video", { url: "https://x.test/a.mp4", upload_id: "up_x" })).isError).toBe(true);
  });

  it("starts one session per set of arguments, and get_session summarizes it", async () => {
    const uploadId = await insertUpload(org, { size: 180_000_000 });
    const args = { upload_id: uploadId, metadata: { game: "semi" }, duration_seconds: 1800, rosters: [{ team: 0, players: [{ jersey: "7", name: "Ana" }] }] };
    const first = await tool(client, "analyze_video", args);
    expect(first.isError, first.text).toBe(false);
    expect(first.data).toMatchObject({ status: "queued", shot_count: 0, highlight_count: 0, cost_held_cents: 250, replayed: false, metadata: { game: "semi" } });
    // A retried call (same arguments, keys in another order) returns the same session.
    const again = await tool(client, "analyze_video", { duration_seconds: 1800, rosters: args.rosters, metadata: { game: "semi" }, upload_id: uploadId });
    expect(again.data.id).toBe(first.data.id);
    expect(again.data.replayed).toBe(true);
    expect((await tool(client, "get_balance")).data.held_cents).toBe(250);

    const bare = first.data.id.replace(/^sess_/, "");
    const got = await tool(client, "get_session", { session_id: bare });
    expect(got.data.id).toBe(first.data.id);
    // hub_url: a signed share link to the session's hub page, on HUB_BASE_URL; it opens without a key.
    const hub = new URL(got.data.hub_url);
    expect(`${hub.origin}${hub.pathname}`).toBe(`https://hub.test/hub/sessions/${first.data.id}`);
    expect([...hub.searchParams.keys()].sort()).toEqual(["exp", "kid", "sig"]);
    const page = await call(`${hub.pathname}${hub.search}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Waiting to start");
    for (const gone of ["shots", "highlights", "players", "totals"]) expect(got.data).not.toHaveProperty(gone);
    expect(got.data).toHaveProperty("video");
    expect(got.data).toHaveProperty("artifacts");

    const missing = await tool(client, "get_session", { session_id: "sess_doesnotexist000000000000" });
    expect(missing.text).toMatch(/404 resource_missing/);
  });
});

describe("reading a processed session", () => {
  let seeded: Awaited<ReturnType<typeof seedProcessedSession>>;
  beforeAll(async () => {
    seeded = await seedProcessedSession(org, { shots: 3, highlights: 3, players: 2 });
  });

  it("lists sessions newest first with counts instead of lists", async () => {
    const r = await tool(client, "list_sessions", { limit: 1, status: "processed" });
    expect(r.data).toMatchObject({ object: "list", has_more: false, total_count: 1 });
    expect(r.data.data[0]).toMatchObject({ id: seeded.sessionId, shot_count: 3, highlight_count: 3 });
    expect(r.data.data[0]).not.toHaveProperty("shots");
  });

  it("lists shots with court_location instead of location and no excitement score", async () => {
    const rest: any = await (await call(`/v1/sessions/${seeded.sessionId}/shots`, { key: org.key })).json();
    const r = await tool(client, "list_shots", { session_id: seeded.sessionId, limit: 2 });
    expect(r.data).toMatchObject({ object: "list", has_more: true, total_count: 3 });
    expect(r.data.data.map((s: any) => s.id)).toEqual(rest.data.slice(0, 2).map((s: any) => s.id));
    const shot = r.data.data[0];
    expect(shot).not.toHaveProperty("location");
    expect(shot).not.toHaveProperty("excitement_score");
    expect(shot.court_location).toEqual(rest.data[0].location.shot_world_normed);
    expect(shot.players.scorer).toBe(rest.data[0].players.scorer);
    const page2 = await tool(client, "list_shots", { session_id: seeded.sessionId, limit: 2, offset: 2 });
    expect(page2.data.data.map((s: any) => s.id)).toEqual([rest.data[2].id]);
  });

  it("lists highlights with the default and horizontal cuts and one preview image", async () => {
    const r = await tool(client, "list_highlights", { session_id: seeded.sessionId });
    const h = r.data.data[0];
    expect(Object.keys(h.video).sort()).toEqual(["default", "horizontal"]);
    expect(h.video.default).toMatch(/^https:\/\/api\.test\/media\//);
    expect(h.video.horizontal).toBeNull();
    expect(typeof h.preview).toBe("string");
  });

  it("lists players without stats, with roster names and metadata", async () => {
    const r = await tool(client, "list_players", { session_id: seeded.sessionId });
    expect(r.data.total_count).toBe(2);
    expect(r.data.data[0]).toMatchObject({ name: "Ada", user_id: "u_ada", jersey: "0", team_id: 0, metadata: { crm: "42" } });
    expect(r.data.data[0]).not.toHaveProperty("stats");
  });
});

describe("rate limit", () => {
  it("counts tool calls against the key's 60 requests a minute", async () => {
    const busy = await createOrg();
    const c = await connect(`Bearer ${busy.key}`);
    for (let i = 0; i < 60; i++) expect((await tool(c, "get_balance")).isError, `call ${i + 1}`).toBe(false);
    const over = await tool(c, "get_balance");
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/429 rate_limit_exceeded/);
    expect(over.text).toMatch(/Retry-After: \d+ s\./);
    // The API itself agrees: the key is spent.
    expect((await call("/v1/balance", { key: busy.key })).status).toBe(429);
  });
});
