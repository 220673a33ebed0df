// The assistant tool server against a real `wrangler dev`, the way an assistant uses it: the
// official MCP client over Streamable HTTP, and the upload command that create_upload returns run
// for real in a shell (curl), by single PUT and by resumable tus PATCHes above the PUT limit.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendToStack, startTestStack, type TestStack } from "./stack";

let stack: TestStack;
let client: Client;
let workDir: string;

beforeAll(async () => {
  stack = await startTestStack();
  const org = await stack.ops.createOrganization("MCP e2e");
  await stack.ops.addCredits(org.id, { amount_cents: 10_000 });
  const key = (await stack.ops.createApiKey(org.id, "assistant")).key;
  client = new Client({ name: "e2e-assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  workDir = mkdtempSync(path.join(tmpdir(), "hoops-mcp-e2e-"));
});
afterAll(async () => {
  await client?.close();
  await stack?.destroy();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function tool(name: string, args: Record<string, unknown> = {}) {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = res.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  if (res.isError) throw new Error(`${name} failed: ${text}`);
  return res.structuredContent as any;
}

/** Runs a command the way an assistant's shell tool does. */
function runShell(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd: workDir });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A file of `size` bytes in the work dir (random blocks, so a wrong offset shows). */
function writeFile(name: string, size: number): string {
  const file = path.join(workDir, name);
  const fd = openSync(file, "w");
  const block = randomBytes(1024 * 1024 + 7);
  for (let written = 0; written < size; ) written += writeSync(fd, block, 0, Math.min(block.length, size - written));
  closeSync(fd);
  return file;
}

const serverOffset = async (uploadUrl: string) =>
  Number((await fetch(uploadUrl, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } })).headers.get("Upload-Offset"));

describe("an assistant uploading and analysing a local file", () => {
  it("sends a small file with the single-PUT command, then starts the analysis", async () => {
    const file = writeFile("game day's clip.mp4", 3_000_123);
    const upload = await tool("create_upload", { path: file, size: 3_000_123 });
    const run = await runShell(upload.command);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: upload.upload_id, status: "complete", size: 3_000_123 });

    const session = await tool("analyze_video", { upload_id: upload.upload_id, duration_seconds: 600 });
    expect(session).toMatchObject({ status: "queued", cost_held_cents: 84, replayed: false, shot_count: 0 });
    // hub_url opens the session's page under wrangler dev, without an API key.
    expect(session.hub_url).toMatch(new RegExp(`^${stack.baseUrl}/hub/sessions/${session.id}\\?exp=\\d+&kid=[\\w-]{8}&sig=[\\w-]{43}$`));
    const page = await fetch(session.hub_url, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Waiting to start|Analysing the game/);
    expect((await tool("get_session", { session_id: session.id.slice("sess_".length) })).status).toMatch(/queued|processing/);
    expect(await tool("get_balance")).toMatchObject({ held_cents: 84, available_cents: 10_000 - 84 });
  });

  it("sends a file above the single-PUT limit with the tus command, resuming from the server's offset", async () => {
    const size = 105_000_017;
    const file = writeFile("final.MOV", size);
    const upload = await tool("create_upload", { path: file, size });
    expect(upload.content_type).toBe("video/quicktime");
    // An earlier attempt got the first 50 MiB through before it was cut off.
    const firstChunk = readFileSync(file).subarray(0, 52_428_800);
    const patch = await sendToStack(() =>
      fetch(upload.upload_url, {
        method: "PATCH",
        headers: { "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
        body: firstChunk,
      }),
    );
    expect(patch.status).toBe(204);

    const run = await runShell(upload.command);
    expect(run.code, run.stderr).toBe(0);
    // It asked the server where to resume: two chunks left, not three.
    expect(run.stdout.trim().split("\n")).toEqual([`sent 104857600 of ${size} bytes`, `sent ${size} of ${size} bytes`]);
    expect(await serverOffset(upload.upload_url)).toBe(size);
    // Running it again sends nothing: the upload is complete.
    const again = await runShell(upload.command);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe("");
  });
});
