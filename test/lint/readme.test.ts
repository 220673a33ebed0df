// The README works for someone who clones the repository fresh and whose port 8787 is taken
// (issue 22, point 13): every local link points at a tracked file, the shell examples read the
// base URL from .local/dev.json, and PORT / serve-videos --port are documented.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./import-graph";

const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const tracked = new Set(execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n"));

describe("README", () => {
  it("every local link and image points at a file a fresh clone has", () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.length).toBeGreaterThan(0);
    const missing = targets.filter((target) => {
      const file = path.normalize(target).replace(/\/$/, "");
      return !tracked.has(file) && ![...tracked].some((t) => t.startsWith(`${file}/`));
    });
    expect(missing).toEqual([]);
  });

  it("shell examples call the API through the base URL from .local/dev.json, not a hard-coded port", () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    const calls = blocks.flatMap((b) => b.split("\n")).filter((line) => /^\s*curl /.test(line));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((line) => line.includes("127.0.0.1:8787"))).toEqual([]);
    expect(readme).toContain(`require('./.local/dev.json').base_url`);
  });

  it("documents PORT for npm start and --port for serve-videos", () => {
    expect(readme).toMatch(/PORT=\d+ npm start/);
    expect(readme).toMatch(/serve-videos[^\n]*--port/);
  });
});
