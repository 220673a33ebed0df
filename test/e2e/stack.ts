// Starts a throwaway local stack (wrangler dev on a free port, storage in a
// temp folder) for one test file.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OperatorClient } from "../../scripts/lib/operator-client";
import { sendPastDevProxyDrops } from "./dev-proxy";
import { startLocalStack, type LocalStack } from "../../scripts/lib/local-stack";

export interface TestStack extends LocalStack {
  operatorToken: string;
  ops: OperatorClient;
  persistDir: string;
  destroy(): Promise<void>;
}

export interface TestStackOptions {
  vars?: Record<string, string>;
  /** ALLOW_LOOPBACK_URLS, on by default (local receivers and video hosts); off to test the production policy. */
  allowLoopbackUrls?: boolean;
  /** DOH_URL: a DNS-over-HTTPS stand-in (test/support/doh-server.ts) for tests that use host names. */
  dohUrl?: string;
}

export async function startTestStack(opts: TestStackOptions = {}): Promise<TestStack> {
  const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-e2e-"));
  const operatorToken = `op_test_${randomBytes(16).toString("hex")}`;
  const stack = await startLocalStack({
    persistDir,
    operatorToken,
    mediaSigningSecret: randomBytes(32).toString("hex"),
    allowLoopbackUrls: opts.allowLoopbackUrls ?? true,
    dohUrl: opts.dohUrl,
    vars: opts.vars,
    onOutput: process.env.E2E_VERBOSE ? (line) => console.log(`[worker] ${line}`) : undefined,
  });
  return {
    ...stack,
    operatorToken,
    persistDir,
    ops: new OperatorClient(stack.baseUrl, operatorToken),
    async destroy() {
      await stack.stop();
      rmSync(persistDir, { recursive: true, force: true });
    },
  };
}

/**
 * A request with a body to the local stack (POST, PUT, PATCH), sent again while `wrangler dev`'s
 * proxy drops it before it reaches the Worker (dev-proxy.ts): the Worker's answer. `send` builds a
 * new request each time. GET and HEAD need none of it: the proxy resends those itself.
 */
export async function sendToStack(send: () => Promise<Response>): Promise<Response> {
  return (await sendPastDevProxyDrops(send)).res;
}

/**
 * Reserves an upload of `size` bytes of video/mp4 through the public API (POST /v1/uploads); a send
 * `wrangler dev`'s proxy drops (it never reached the Worker, see dev-proxy.ts) is sent again.
 */
export async function reserveUpload(baseUrl: string, apiKey: string, size: number): Promise<{ id: string; upload_url: string }> {
  const { res } = await sendPastDevProxyDrops(() =>
    fetch(`${baseUrl}/v1/uploads`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content_type: "video/mp4", size }),
    }),
  );
  if (res.status !== 200) throw new Error(`POST /v1/uploads answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string; upload_url: string };
}
