// `redocly lint` (with the committed redocly.yaml: Redocly's recommended rules, every warning an
// error) passes on the public and the runner OpenAPI documents, as GET /v1/openapi.json and
// GET /runner/v1/openapi.json serve them (issue 22, point 8). Offline: built-in rules, telemetry off.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicOpenApiDocument, runnerOpenApiDocument } from "../../worker/apis";
import { ROOT } from "./import-graph";

/** Redocly takes a few seconds a document, more on a busy machine. */
const LINT_TIMEOUT_MS = 120_000;

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

let dir: string;

/** Runs `redocly lint --config redocly.yaml` on one document, as docs/api-reference.md says to. */
function lint(name: string, doc: unknown): LintReport {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js"), "lint", "--config", path.join(ROOT, "redocly.yaml"), "--format", "json", file], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (!run.stdout.trim().startsWith("{")) throw new Error(`redocly lint did not report (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as LintReport;
}

const described = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

describe("redocly lint", () => {
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, build] of [["public", publicOpenApiDocument], ["runner", runnerOpenApiDocument]] as const) {
    it(`reports no error (and no warning) on the ${name} API document`, () => {
      const report = lint(name, build());
      expect(described(report)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }, LINT_TIMEOUT_MS);
  }

  it("reports a document without a licence or servers (the check can fail)", () => {
    const { license: _license, ...info } = runnerOpenApiDocument().info;
    const report = lint("broken", { ...runnerOpenApiDocument(), info, servers: [] });
    expect(report.totals.errors).toBeGreaterThan(0);
    expect(report.problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(["info-license", "no-empty-servers"]));
  }, LINT_TIMEOUT_MS);
});
