// Starts the Worker under `wrangler dev` (staging environment, local D1, R2,
// queues and Durable Objects persisted to a folder), with migrations applied.
// Used by `npm start`, the end-to-end tests and the benchmarks.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");

export interface LocalStackOptions {
  persistDir: string;
  operatorToken: string;
  mediaSigningSecret: string;
  port?: number;
  /** Where the server's port comes from when `port` is not named (default: freePort). */
  choosePort?: () => Promise<number>;
  /**
   * ALLOW_LOOPBACK_URLS: source links and webhook receivers may point at hosts that resolve only
   * to loopback (127.0.0.1, localhost, a test name the DoH stand-in maps there), reached over http.
   */
  allowLoopbackUrls?: boolean;
  /** DOH_URL: the DNS-over-HTTPS endpoint for the Worker's URL checks (default: Cloudflare's public one). */
  dohUrl?: string;
  /** Extra Worker variables (e.g. JOB_LEASE_SECONDS for tests). */
  vars?: Record<string, string>;
  /** Receives wrangler's output lines; default: discarded. */
  onOutput?: (line: string) => void;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Environment for every wrangler invocation: no telemetry, no network fetches. */
export function wranglerEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function applyMigrations(persistDir: string): void {
  const result = spawnSync(
    process.execPath,
    [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--env", "staging", "--persist-to", persistDir],
    { cwd: ROOT, env: wranglerEnv(), encoding: "utf8" },
  );
  if (result.status !== 0) {
    throw new Error(`Applying D1 migrations failed:\n${result.stdout}\n${result.stderr}`);
  }
}

/** How long one /health probe may wait for an answer before the next is sent. */
const HEALTH_PROBE_TIMEOUT_MS = 5_000;

export async function waitForHealthy(baseUrl: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early with code ${child.exitCode}`);
    try {
      // Bounded: until wrangler binds, whatever holds the port may accept and never answer.
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(HEALTH_PROBE_TIMEOUT_MS) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not become healthy at ${baseUrl} within ${timeoutMs / 1000}s`);
}

/** How many times a stack on ports chosen here is started before its error is passed on. */
const PORT_TAKEN_TRIES = 3;

export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  applyMigrations(opts.persistDir);
  // freePort() lets its port go before wrangler binds it, so on a busy machine (parallel test
  // files each starting a stack) another process can take it in between, and wrangler exits with
  // "Address already in use". When the ports are ours to choose, choose again; a port the caller
  // named is reported at once.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchWrangler(opts, opts.port ?? (await (opts.choosePort ?? freePort)()));
    } catch (err) {
      if (!(err instanceof PortTakenError) || opts.port !== undefined || attempt >= PORT_TAKEN_TRIES) throw err;
    }
  }
}

/** wrangler dev exited because a port it was given (the server's or the inspector's) was taken. */
class PortTakenError extends Error {}

async function launchWrangler(opts: LocalStackOptions, port: number): Promise<LocalStack> {
  const args = [
    WRANGLER, "dev", "--env", "staging", "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", opts.persistDir, "--show-interactive-dev-session=false", "--log-level", "info",
    "--inspector-port", String(await freePort()),
    "--var", `OPERATOR_TOKEN:${opts.operatorToken}`,
    "--var", `MEDIA_SIGNING_SECRET:${opts.mediaSigningSecret}`,
    "--var", `ALLOW_LOOPBACK_URLS:${opts.allowLoopbackUrls ? "true" : "false"}`,
    "--var", `PUBLIC_BASE_URL:http://127.0.0.1:${port}`,
    // Card payments go to the local stand-in for Stripe (worker/services/payments.ts), whose
    // confirmations are signed with this secret, as Stripe signs with the webhook's.
    "--var", "LOCAL_PAYMENTS:true",
    "--var", `STRIPE_WEBHOOK_SECRET:whsec_local_${randomBytes(24).toString("hex")}`,
    ...(opts.dohUrl ? ["--var", `DOH_URL:${opts.dohUrl}`] : []),
    ...Object.entries(opts.vars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: false });
  let tail = "";
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-4000);
    for (const line of text.split("\n")) if (line.trim()) opts.onOutput?.(line);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(baseUrl, child);
  } catch (err) {
    child.kill("SIGKILL");
    const message = `${(err as Error).message}\n--- wrangler output ---\n${tail}`;
    throw /Address already in use/.test(tail) ? new PortTakenError(message) : new Error(message);
  }
  return {
    baseUrl,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
