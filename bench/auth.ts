// Authenticated, rate-limited route vs a bare route of the same Worker, in the
// same `wrangler dev` run. GET /v1/balance does: request id, services, API key
// verification (per-isolate cache after the first D1 lookup), one call to the
// key's rate-limit Durable Object, and two aggregate D1 queries. /health does
// only the request-id and services middleware.
//
// 60 requests per minute per key is enforced, so the benchmark mints enough
// keys and spreads requests over them round-robin.
import { drive, loadRow, printTable, runBench, withBenchOrganization } from "./lib";

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

runBench(() =>
  withBenchOrganization(Math.ceil((TOTAL + 100) / 55), async (stack, keys) => {
    // Warm up both paths (isolate start, key cache, DO instantiation).
    for (const key of keys) await fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
    for (let i = 0; i < 50; i++) await (await fetch(`${stack.baseUrl}/health`)).arrayBuffer();

    const bare = await drive("GET /health (bare)", TOTAL, CONCURRENCY, () => fetch(`${stack.baseUrl}/health`));
    const authed = await drive("GET /v1/balance", TOTAL, CONCURRENCY, (i) =>
      fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${keys[i % keys.length]}` } }),
    );
    printTable([bare, authed].map((r) => loadRow(r, { "throughput vs bare": r.rps / bare.rps })));
  }),
);
