// Big rooms split where the split is natural (docs/architecture.md): one MCP tool per file, as one
// endpoint per file; the upload target's tus rules apart from its Durable Object.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("rooms", () => {
  it("each assistant tool is one file in worker/mcp/tools, named after the tool, and server.ts registers none itself", () => {
    const dir = "worker/mcp/tools";
    const files = readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith(".ts"));
    const named = files.map((file) => {
      const source = read(`${dir}/${file}`);
      const direct = [...source.matchAll(/registerTool\(\s*"([a-z_]+)"/g)].map((m) => m[1]);
      const lists = [...source.matchAll(/registerSessionListTool<\w+>\(\s*server,\s*\w+,\s*"([a-z]+)"/g)].map((m) => `list_${m[1]}`);
      return { file, tools: [...direct, ...lists] };
    });
    expect(named.map((n) => n.tools.length)).toEqual(files.map(() => 1));
    expect(named.map((n) => n.tools[0]).sort()).toEqual(
      ["analyze_video", "create_upload", "get_balance", "get_session", "list_highlights", "list_players", "list_sessions", "list_shots"],
    );
    for (const { file, tools } of named) expect(file).toBe(`${tools[0].replaceAll("_", "-")}.ts`);
    expect(read("worker/mcp/server.ts")).not.toMatch(/registerTool\(/);
  });

  it("the UploadState Durable Object states no tus rule itself: refusals, offsets and parts come from tus-buffer.ts", () => {
    const room = read("worker/durable-objects/upload-state.ts");
    expect(room).toContain('from "./tus-buffer"');
    // Every refusal is a TusRefusal from the pure module, never a code and sentence written here.
    expect(room).not.toMatch(/this\.fail\(\s*"/);
    expect(room).not.toMatch(/\bPART_SIZE\b/);
    const rules = read("worker/durable-objects/tus-buffer.ts");
    expect(rules).not.toMatch(/cloudflare:workers|ctx\.storage|R2Bucket/);
  });

  it("one put-or-tus rule: only uploadMethodFor (worker/lib/tus.ts) compares a size with the single-PUT limit", () => {
    const sources = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : [],
      );
    const comparing = /[<>]=?\s*MAX_SINGLE_PUT_BYTES\b|\bMAX_SINGLE_PUT_BYTES\s*[<>]=?/;
    expect(sources("worker").filter((f) => comparing.test(read(f)))).toEqual(["worker/lib/tus.ts"]);
    expect(read("worker/lib/tus.ts")).toMatch(/export function uploadMethodFor\(size: number\): UploadMethod \{\n\s*return size <= MAX_SINGLE_PUT_BYTES/);
    // The checker can fail: the comparison the assistant tool's command made before it asked the API.
    expect(comparing.test("if (opts.size <= MAX_SINGLE_PUT_BYTES) {")).toBe(true);
  });

  it("one idempotency rule: submit runs under runIdempotent and handles no key itself", () => {
    const submit = read("worker/services/sessions.ts");
    expect(submit).toMatch(/return runIdempotent</);
    // Claiming, storing, forgetting and releasing a key are runIdempotent's alone.
    expect(submit).not.toMatch(/\bclaimKey\b|\.forget\(|\.release\(|\.complete\(/);
  });
});
