#!/usr/bin/env -S npx tsx
// The GPU runner CLI. Pulls jobs from the API over authenticated HTTP, runs
// them, uploads the results. Any number of runners on any number of hosts can
// share one API: jobs are leased, never pushed.
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { RunnerApi } from "./api";
import { resolverFor } from "./download";
import type { Pipeline } from "./job";
import { createLogger } from "./log";
import { Runner } from "./loop";
import { detectMediaHardware } from "./media/hardware";
import { AnalysisModels, modelSettingsFromEnv } from "./vision/models";

const USAGE = `Usage: npm run runner -- [options]

  --api-url URL        API base URL                 (env HOOPS_API_URL)
  --token TOKEN        runner token, hr_…           (env HOOPS_RUNNER_TOKEN)
  --concurrency N      jobs at a time, default 1    (env RUNNER_CONCURRENCY)
  --work-dir DIR       scratch space, default $TMPDIR/hoops-runner (env RUNNER_WORK_DIR)
  --pipeline P         full (default) or media (renditions only, no analysis) (env RUNNER_PIPELINE)
  --claim-wait S       long-poll length of a claim, 1–25 s, default 20 (env RUNNER_CLAIM_WAIT_SECONDS);
                       a first SIGTERM waits for the claim in flight, so this bounds shutdown time
  --doh-url URL        resolve source links' hosts through this DNS-over-HTTPS (JSON) endpoint
                       instead of the host's resolver (env RUNNER_DOH_URL)
  --allow-loopback-urls  development only: source links may point at hosts that resolve to
                       127.0.0.1 / ::1, fetched over plain http (env RUNNER_ALLOW_LOOPBACK_URLS=true);
                       refused unless --api-url is itself a loopback address
  --keep-work          keep job folders after each job

Models (docs/analysis.md): the trained CenterNet built by npm ci is the default. A trained YOLO
export at $HOOPS_MODEL_DIR/detector.onnx (or models/detector.onnx) wins over it. HOOPS_DETECTOR=
synthetic-fixture selects the colour-filter fixture for the generated test games (never in
production). HOOPS_EXECUTION_PROVIDER=cpu forces CPU; HOOPS_ORT_THREADS sets inference threads;
HOOPS_MODEL_THREAD=off runs the real-footage model on the main thread instead of its own.

Media tools: FFMPEG_PATH and FFPROBE_PATH point at other builds (an ffmpeg with NVENC on GPU hosts);
HOOPS_FORCE_CPU=1 skips the NVENC probe (renditions with libx264). The jobs of one process share one
GPU: on a host with several, run one process per GPU, each with its own CUDA_VISIBLE_DEVICES.

First SIGTERM/SIGINT: stop claiming and finish current jobs. Second: cancel them and hand them back.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      "api-url": { type: "string" },
      token: { type: "string" },
      concurrency: { type: "string" },
      "work-dir": { type: "string" },
      pipeline: { type: "string" },
      "claim-wait": { type: "string" },
      "doh-url": { type: "string" },
      "allow-loopback-urls": { type: "boolean", default: false },
      "keep-work": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const apiUrl = (values["api-url"] ?? process.env.HOOPS_API_URL ?? "").replace(/\/$/, "");
  const token = values.token ?? process.env.HOOPS_RUNNER_TOKEN ?? "";
  const concurrency = Number(values.concurrency ?? process.env.RUNNER_CONCURRENCY ?? 1);
  const pipeline = (values.pipeline ?? process.env.RUNNER_PIPELINE ?? "full") as Pipeline;
  const claimWaitSeconds = Number(values["claim-wait"] ?? process.env.RUNNER_CLAIM_WAIT_SECONDS ?? 20);
  const workDir = path.resolve(values["work-dir"] ?? process.env.RUNNER_WORK_DIR ?? path.join(os.tmpdir(), "hoops-runner"));
  const dohUrl = values["doh-url"] ?? process.env.RUNNER_DOH_URL ?? undefined;
  const allowLoopbackUrls = values["allow-loopback-urls"] || process.env.RUNNER_ALLOW_LOOPBACK_URLS === "true";
  const log = createLogger({ runner: os.hostname(), pid: process.pid });
  if (!apiUrl || !token) {
    process.stderr.write(`Missing --api-url or --token.\n\n${USAGE}`);
    return 2;
  }
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    process.stderr.write("--concurrency must be an integer from 1 to 64\n");
    return 2;
  }
  if (!Number.isInteger(claimWaitSeconds) || claimWaitSeconds < 1 || claimWaitSeconds > 25) {
    process.stderr.write("--claim-wait must be an integer from 1 to 25\n");
    return 2;
  }
  if (pipeline !== "full" && pipeline !== "media") {
    process.stderr.write("--pipeline must be full or media\n");
    return 2;
  }
  // Like the Worker's ALLOW_LOOPBACK_URLS in production: a runner serving a real API never lets
  // customer links reach its own host.
  if (allowLoopbackUrls && !isLoopbackApi(apiUrl)) {
    process.stderr.write("--allow-loopback-urls is for local development: the API URL must be a loopback address (127.0.0.1, localhost, [::1])\n");
    return 2;
  }
  if (dohUrl !== undefined && !/^https?:\/\/[^/]/.test(dohUrl)) {
    process.stderr.write("--doh-url must be an http(s) URL\n");
    return 2;
  }
  try {
    mkdirSync(workDir, { recursive: true });
  } catch (err) {
    // A host fault, like a work directory that fills up later (exit 1, docs/runner.md).
    process.stderr.write(`The work directory ${workDir} cannot be created: ${(err as Error).message}\n`);
    return 1;
  }
  const hw = await detectMediaHardware((msg) => log.info(msg));
  const settings = modelSettingsFromEnv();
  // The execution-provider lines (when the first model opens) join the runner's JSON log.
  const models = new AnalysisModels({ ...settings, session: { ...settings.session, log: (msg) => log.info(msg) } });
  if (pipeline === "full") {
    // Which detector jobs will use (a dropped-in trained model wins; the synthetic fixture only on request).
    const landscape = models.choose("landscape");
    log.info(landscape.kind === "centernet" ? `detector: CenterNet fine-tuned for basketball (${models.centerNetPath})` : `detector: ${landscape.modelPath} (${landscape.why})`);
    if (landscape.kind === "centernet" && !existsSync(models.centerNetPath)) {
      process.stderr.write(`${models.centerNetPath} is missing: it is committed in models/ (git checkout it), or a model directory's own centernet.onnx (HOOPS_MODEL_DIR)\n`);
      return 2;
    }
  }
  const runner = new Runner(
    new RunnerApi(apiUrl, token),
    { concurrency, workDir, pipeline, apiOrigin: apiUrl, allowLoopbackUrls, resolver: resolverFor(dohUrl), claimWaitSeconds, keepWork: values["keep-work"], models },
    hw,
    log,
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => runner.stop());
  try {
    await runner.run();
    return 0;
  } catch (err) {
    log.error("runner exiting", { error: (err as Error).message });
    return 1;
  } finally {
    await models.close();
  }
}

function isLoopbackApi(apiUrl: string): boolean {
  try {
    const host = new URL(apiUrl).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}

main().then((code) => process.exit(code));
