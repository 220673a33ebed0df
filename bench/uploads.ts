// Upload throughput against a local Worker (wrangler dev, local R2 and Durable
// Objects): a file sent through tus in several chunk sizes versus a single PUT
// of the same bytes. Prints one table; the figures in docs/uploads.md come
// from it.
//
//   npm run bench:uploads                      # 200 MB, 3 runs each
//   npm run bench:uploads -- --mb 50 --runs 1  # quicker
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Upload } from "tus-js-client";
import { startLocalStack } from "../scripts/lib/local-stack";
import { OperatorClient } from "../scripts/lib/operator-client";
import { MAX_CHUNK_BYTES, MAX_SINGLE_PUT_BYTES, RECOMMENDED_CHUNK_BYTES } from "../worker/lib/tus";

const MiB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
  },
});
const totalBytes = Number(values.mb) * 1_000_000;
const runs = Number(values.runs);
const chunkSizes = [5 * MiB, 20 * MiB, RECOMMENDED_CHUNK_BYTES, MAX_CHUNK_BYTES];

const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-bench-uploads-"));
const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
const stack = await startLocalStack({ persistDir, operatorToken, mediaSigningSecret: randomBytes(32).toString("hex") });

try {
  const ops = new OperatorClient(stack.baseUrl, operatorToken);
  const org = await ops.createOrganization("Upload bench");
  const apiKey = (await ops.createApiKey(org.id, "bench")).key;

  async function reserve(size: number): Promise<string> {
    const res = await fetch(`${stack.baseUrl}/v1/uploads`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content_type: "video/mp4", size }),
    });
    if (!res.ok) throw new Error(`reserve: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { upload_url: string }).upload_url;
  }

  async function viaTus(bytes: Buffer, chunkSize: number): Promise<number> {
    const uploadUrl = await reserve(bytes.byteLength);
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      new Upload(bytes, { uploadUrl, chunkSize, retryDelays: [], onSuccess: () => resolve(), onError: reject }).start();
    });
    return (performance.now() - started) / 1000;
  }

  async function viaPut(bytes: Buffer): Promise<number> {
    const uploadUrl = await reserve(bytes.byteLength);
    const started = performance.now();
    const res = await fetch(uploadUrl, { method: "PUT", body: bytes, headers: { "Content-Type": "video/mp4" } });
    if (res.status !== 200) throw new Error(`PUT: ${res.status} ${await res.text()}`);
    return (performance.now() - started) / 1000;
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  async function measure(run: () => Promise<number>): Promise<number> {
    const times: number[] = [];
    // The first successful run is a warm-up (isolates, Durable Object, R2 files).
    // wrangler dev restarts the Worker whenever a source file changes; a run
    // cut short by that is dropped and repeated rather than counted.
    for (let attempt = 0; times.length < runs + 1; attempt++) {
      try {
        times.push(await run());
      } catch (err) {
        if (attempt >= 3 * (runs + 1)) throw err;
        console.error(`run failed, repeating it: ${(err as Error).message.split("\n")[0]}`);
      }
    }
    return median(times.slice(1));
  }

  // A single PUT is capped at Cloudflare's 100 MB request body limit, so it is
  // compared at the largest size it accepts; tus runs at both sizes.
  const putBytes = Math.min(totalBytes, MAX_SINGLE_PUT_BYTES);
  const big = randomBytes(totalBytes);
  const small = big.subarray(0, putBytes);

  const rows: { size: number; method: string; seconds: number }[] = [];
  const putSeconds = await measure(() => viaPut(small));
  rows.push({ size: putBytes, method: "single PUT", seconds: putSeconds });
  const smallTus = await measure(() => viaTus(small, RECOMMENDED_CHUNK_BYTES));
  rows.push({ size: putBytes, method: `tus, ${RECOMMENDED_CHUNK_BYTES / MiB} MiB chunks`, seconds: smallTus });
  if (totalBytes > putBytes) {
    for (const chunk of chunkSizes) {
      rows.push({ size: totalBytes, method: `tus, ${chunk / MiB} MiB chunks`, seconds: await measure(() => viaTus(big, chunk)) });
    }
  }

  const putRate = putBytes / putSeconds;
  console.log(`\nUploads to a local Worker (wrangler dev), median of ${runs} runs after a warm-up\n`);
  console.log("| size | method | seconds | MB/s | throughput vs single PUT |");
  console.log("|---:|---|---:|---:|---:|");
  for (const r of rows) {
    const rate = r.size / r.seconds;
    console.log(`| ${r.size / 1e6} MB | ${r.method} | ${r.seconds.toFixed(2)} | ${(rate / 1e6).toFixed(1)} | ${(rate / putRate).toFixed(2)} |`);
  }
  if (totalBytes > putBytes) console.log(`\nSingle PUT is refused above ${MAX_SINGLE_PUT_BYTES} bytes, so it was measured at ${putBytes / 1e6} MB.`);
} finally {
  await stack.stop();
  rmSync(persistDir, { recursive: true, force: true });
}
