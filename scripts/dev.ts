// `npm start`: the whole system on this machine. Starts the Worker under
// wrangler dev (staging environment, local D1/R2/queues/Durable Objects in
// .local/state; card payments through the local stand-in for Stripe), seeds a
// dev organization with an API key and credits, writes
// the credentials to .local/dev.json, and stops everything on Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OperatorClient } from "./lib/operator-client";
import { ROOT, startLocalStack, type LocalStack } from "./lib/local-stack";

const LOCAL_DIR = path.join(ROOT, ".local");
const DEV_FILE = path.join(LOCAL_DIR, "dev.json");
const PORT = Number(process.env.PORT ?? 8787);
const DEV_CREDITS_CENTS = 100_000; // $1,000: 200 hours of video at 500 cents/hour

interface DevCredentials {
  base_url: string;
  api_key?: string;
  api_key_id?: string;
  organization_id?: string;
  operator_token: string;
  media_signing_secret: string;
  runner_token?: string;
}

function loadCredentials(): DevCredentials {
  if (existsSync(DEV_FILE)) return JSON.parse(readFileSync(DEV_FILE, "utf8"));
  return {
    base_url: `http://127.0.0.1:${PORT}`,
    operator_token: `op_dev_${randomBytes(24).toString("hex")}`,
    media_signing_secret: randomBytes(32).toString("hex"),
  };
}

async function seed(creds: DevCredentials, baseUrl: string): Promise<DevCredentials> {
  const ops = new OperatorClient(baseUrl, creds.operator_token);
  if (creds.api_key) {
    const res = await fetch(`${baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${creds.api_key}` } });
    if (res.ok) return { ...creds, base_url: baseUrl };
  }
  const org = await ops.createOrganization("Dev organization");
  const key = await ops.createApiKey(org.id, "dev");
  await ops.addCredits(org.id, { amount_cents: DEV_CREDITS_CENTS, source: "promotional", note: "npm start seed" });
  const runner = await ops.createRunnerToken("dev runner");
  return { ...creds, base_url: baseUrl, organization_id: org.id, api_key: key.key, api_key_id: key.id, runner_token: runner.token };
}

/**
 * The resolver for outbound URL checks: `DOH_URL` from the environment when set (the Worker's
 * DOH_URL and the runner's --doh-url), else the defaults — Cloudflare's public DoH endpoint for
 * the Worker, as in production, and the host's own resolver for the runner.
 */
const DOH_URL = process.env.DOH_URL || undefined;

/** One GPU runner against the local Worker; its job lines are echoed with a prefix. */
function startRunner(apiUrl: string, token: string, verbose: boolean): ChildProcess {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "gpu-runner/main.ts"), "--api-url", apiUrl, "--token", token,
      "--work-dir", path.join(LOCAL_DIR, "runner"),
      // Links served from this machine (npm run serve-videos) are what local development uses.
      "--allow-loopback-urls",
      ...(DOH_URL ? ["--doh-url", DOH_URL] : [])],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  const echo = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line.trim()) continue;
      let entry: Record<string, unknown> | null = null;
      try {
        entry = JSON.parse(line);
      } catch {
        // not a log line
      }
      const interesting = !entry || verbose || entry.level !== "info" || /claimed|completed|started|stopped|progress|execution provider/.test(String(entry.msg));
      if (!interesting) continue;
      const text = entry
        ? `${entry.msg}${entry.session_id ? ` ${entry.session_id}` : ""}${entry.stage ? ` ${entry.stage} ${entry.percent}%` : ""}${entry.error ? ` (${entry.error})` : ""}`
        : line;
      console.log(`[runner] ${text}`);
    }
  };
  child.stdout!.on("data", echo);
  child.stderr!.on("data", echo);
  return child;
}

async function main() {
  mkdirSync(LOCAL_DIR, { recursive: true });
  let creds = loadCredentials();
  const verbose = process.argv.includes("--verbose");
  console.log("Starting the Worker (wrangler dev, staging environment, local storage in .local/state) …");
  const stack: LocalStack = await startLocalStack({
    persistDir: path.join(LOCAL_DIR, "state"),
    port: PORT,
    operatorToken: creds.operator_token,
    mediaSigningSecret: creds.media_signing_secret,
    // Local links (http://127.0.0.1:…, localhost) and local webhook receivers are allowed; a
    // deployed Worker refuses to run with this on.
    allowLoopbackUrls: true,
    dohUrl: DOH_URL,
    onOutput: (line) => {
      if (verbose || /error|exception|uncaught/i.test(line)) console.log(`[worker] ${line}`);
    },
  });
  creds = await seed(creds, stack.baseUrl);
  writeFileSync(DEV_FILE, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  const runner = startRunner(stack.baseUrl, creds.runner_token!, verbose);

  console.log(`
  Basketball video analysis API (local, staging environment)
  Base URL      ${stack.baseUrl}
  API key       ${creds.api_key}
  Organization  ${creds.organization_id}
  Credentials   .local/dev.json
  API reference ${stack.baseUrl}/docs  (runner API: ${stack.baseUrl}/docs/runner)
  MCP server    ${stack.baseUrl}/mcp  (assistants: send the API key as Authorization: Bearer)
  Runner        one GPU runner process (logs prefixed [runner])
  Links         loopback allowed (ALLOW_LOOPBACK_URLS=true); host names resolved by ${DOH_URL ?? "Cloudflare's public DoH (set DOH_URL to change)"}
                try one: npm run serve-videos -- <folder with .mp4 files>   (prints the submit command)

  Payments      the local stand-in for Stripe (no card is charged); top up by card:
                npm run ops -- top-up:create --org ${creds.organization_id} --cents 5000   (open the printed link, press Pay)

  Try:  curl -s ${stack.baseUrl}/v1/balance -H "Authorization: Bearer ${creds.api_key}"
  Press Ctrl-C to stop.${verbose ? "" : "  (Run with -- --verbose for the Worker's logs.)"}
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping …");
    // Two SIGTERMs (apart, or the kernel merges them): the runner hands its
    // job back at once instead of finishing it. The Worker stops last.
    runner.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    runner.kill("SIGTERM");
    const exited = new Promise((r) => (runner.exitCode !== null ? r(null) : runner.once("exit", r)));
    const timeout = setTimeout(() => runner.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timeout);
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  stack.process.on("exit", (code) => {
    if (!stopping) {
      console.error(`wrangler dev exited unexpectedly (code ${code}).`);
      process.exit(1);
    }
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
