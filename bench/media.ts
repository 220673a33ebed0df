// Issue 5's benchmark: wall time of the runner's media work on a 60 s 1080p30
// file (download, probe, renditions 1080p/720p/360p + preview, resumable
// uploads, complete) against a bare `ffmpeg -i file -f null -` decode of the
// same file, in the same run. Runs the real runner process (pipeline `media`,
// no analysis) against a local stack.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import * as tus from "tus-js-client";
import { tmpdir } from "node:os";
import path from "node:path";
import { FFMPEG } from "../gpu-runner/media/binaries";
import { OperatorClient } from "../scripts/lib/operator-client";
import { startLocalStack } from "../scripts/lib/local-stack";
import { makeTestVideo, startRunner } from "../test/e2e/runner-process";
import { printTable } from "./lib";

const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "hoops-bench-media-"));
  const file = path.join(dir, "game-1080p30.mp4");
  console.log(`Generating a ${SECONDS} s 1080p30 test video …`);
  makeTestVideo(file, { width: 1920, height: 1080, seconds: SECONDS, fps: 30 });
  const size = statSync(file).size;

  const t0 = performance.now();
  const decode = spawnSync(FFMPEG, ["-hide_banner", "-i", file, "-f", "null", "-"]);
  const decodeSeconds = (performance.now() - t0) / 1000;
  if (decode.status !== 0) throw new Error("ffmpeg decode failed");

  const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
  const stack = await startLocalStack({ persistDir: path.join(dir, "state"), operatorToken, mediaSigningSecret: randomBytes(32).toString("hex"), allowLoopbackUrls: true });
  try {
    const ops = new OperatorClient(stack.baseUrl, operatorToken);
    const org = await ops.createOrganization("bench");
    const key = (await ops.createApiKey(org.id)).key;
    await ops.addCredits(org.id, { amount_cents: 10_000 });
    const token = (await ops.createRunnerToken("bench")).token;
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const upload: any = await (await fetch(`${stack.baseUrl}/v1/uploads`, { method: "POST", headers: auth, body: JSON.stringify({ content_type: "video/mp4", size }) })).json();
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(createReadStream(file), {
        uploadUrl: upload.upload_url,
        uploadSize: size,
        chunkSize: 50 * 1024 * 1024,
        onError: reject,
        onSuccess: () => resolve(),
      }).start();
    });
    const session: any = await (await fetch(`${stack.baseUrl}/v1/sessions`, { method: "POST", headers: auth, body: JSON.stringify({ source: { type: "upload", upload_id: upload.id } }) })).json();

    const runner = startRunner(stack.baseUrl, token, ["--pipeline", "media"]);
    let completed: any = null;
    const deadline = Date.now() + 600_000;
    while (!completed && Date.now() < deadline) {
      completed = runner.logs.map((l) => { try { return JSON.parse(l); } catch { return null; } }).find((e) => e?.msg === "job completed");
      if (runner.logs.some((l) => l.includes('"job failed'))) throw new Error(runner.logs.join("\n"));
      await new Promise((r) => setTimeout(r, 250));
    }
    runner.child.kill("SIGTERM");
    if (!completed) throw new Error(`no completion:\n${runner.logs.join("\n")}`);
    const state: any = await (await fetch(`${stack.baseUrl}/v1/sessions/${session.id}`, { headers: auth })).json();
    console.log(`\nSession ${session.id}: ${state.status}, ${state.duration_seconds} s, cost ${state.cost_cents} cents, file ${(size / 1e6).toFixed(1)} MB\n`);
    const rows: Array<Record<string, string | number>> = [{ step: "bare ffmpeg decode (-f null)", seconds: decodeSeconds, "× decode": 1 }];
    for (const [stage, seconds] of Object.entries(completed.stage_seconds as Record<string, number>)) {
      if (stage === "claimed") continue;
      rows.push({ step: `runner: ${stage}`, seconds, "× decode": seconds / decodeSeconds });
    }
    rows.push({ step: "runner: whole job (claim → complete)", seconds: completed.seconds, "× decode": completed.seconds / decodeSeconds });
    printTable(rows);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
