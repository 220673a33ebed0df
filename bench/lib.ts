// Shared helpers for benchmarks: a fixed-concurrency request driver with
// latency percentiles, table printing, and a throwaway local stack.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLocalStack, type LocalStack } from "../scripts/lib/local-stack";
import { OperatorClient } from "../scripts/lib/operator-client";

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)];
}

/** Runs `total` calls of `request(i)` with `concurrency` in flight. */
export async function drive(name: string, total: number, concurrency: number, request: (i: number) => Promise<Response>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const res = await request(i);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests: total, errors, seconds, rps: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** A load result as a table row: the common columns, then ratio columns such as `throughput vs bare`. */
export function loadRow(r: LoadResult, ratios: Record<string, number> = {}): Record<string, string | number> {
  return { route: r.name, requests: r.requests, errors: r.errors, "req/s": r.rps, "p50 ms": r.p50, "p99 ms": r.p99, ...ratios };
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const cols = Object.keys(rows[0]);
  const cells = rows.map((r) => cols.map((c) => (typeof r[c] === "number" ? formatNumber(r[c] as number) : String(r[c]))));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (vals: string[]) => `| ${vals.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(cols));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of cells) console.log(line(row));
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/**
 * A throwaway local stack (wrangler dev, storage in a temp folder) with one organization and
 * `keyCount` API keys, for benchmarks that spread requests over keys to stay under 60/min each.
 * Stopped and deleted when `body` settles.
 */
export async function withBenchOrganization<T>(keyCount: number, body: (stack: LocalStack, keys: string[]) => Promise<T>): Promise<T> {
  const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-bench-"));
  const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
  const stack = await startLocalStack({ persistDir, operatorToken, mediaSigningSecret: randomBytes(32).toString("hex") });
  try {
    const ops = new OperatorClient(stack.baseUrl, operatorToken);
    const org = await ops.createOrganization("bench");
    await ops.addCredits(org.id, { amount_cents: 10_000 });
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) keys.push((await ops.createApiKey(org.id, `bench-${i}`)).key);
    return await body(stack, keys);
  } finally {
    await stack.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

/**
 * A bench's command line: `args` as given, `arg("name")` the value after `--name`. `--help` prints
 * `usage` and ends the process; `usageError(reason)` prints the reason and the usage to stderr and
 * ends it with status 2 (a required option missing).
 */
export function commandLine(usage: string): { args: string[]; arg: (name: string) => string | undefined; usageError: (reason: string) => never } {
  const args = process.argv.slice(2);
  if (args.includes("--help")) {
    console.log(usage);
    process.exit(0);
  }
  return {
    args,
    arg: (name) => {
      const i = args.indexOf(`--${name}`);
      return i >= 0 ? args[i + 1] : undefined;
    },
    usageError: (reason) => {
      console.error(`${reason}\n\n${usage}`);
      process.exit(2);
    },
  };
}

/** Runs a benchmark's main, exiting non-zero on failure. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
