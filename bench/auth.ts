// Authenticated, rate-limited route vs a bare route of the same Worker, in the
// same `wrangler dev` run. GET /v1/balance does: request id, services, API key
// verification (per-isolate cache after the first D1 lookup), one call to the
// key's rate-limit Durable Object, and two aggregate D1 queries. /health does
// only the request-id and services middleware.
//
// 60 requests per minute per key is enforced, so the benchmark mints enough
// keys and spreads requests over them round-robin.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OperatorClient } from "../scripts/lib/operator-client";
import { startLocalStack } from "../scripts/lib/local-stack";
import { drive, loadRow, printTable } from "./lib";

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

async function main() {
  const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-bench-"));
  const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
  const stack = await startLocalStack({ persistDir, operatorToken, mediaSigningSecret: randomBytes(32).toString("hex") });
  try {
    const ops = new OperatorClient(stack.baseUrl, operatorToken);
    const org = await ops.createOrganization("bench");
    await ops.addCredits(org.id, { amount_cents: 10_000 });
    const keyCount = Math.ceil((TOTAL + 100) / 55);
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) keys.push((await ops.createApiKey(org.id, `bench-${i}`)).key);

    // Warm up both paths (isolate start, key cache, DO instantiation).
    for (const key of keys) await fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
    for (let i = 0; i < 50; i++) await (await fetch(`${stack.baseUrl}/health`)).arrayBuffer();

    const bare = await drive("GET /health (bare)", TOTAL, CONCURRENCY, () => fetch(`${stack.baseUrl}/health`));
    const authed = await drive("GET /v1/balance", TOTAL, CONCURRENCY, (i) =>
      fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${keys[i % keys.length]}` } }),
    );
    printTable([bare, authed].map((r) => loadRow(r, { "throughput vs bare": r.rps / bare.rps })));
  } finally {
    await stack.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
